/**
 * `npm start` as an operator runs it under systemd or in a container: it listens on loopback only unless told
 * otherwise, and a SIGINT or SIGTERM sent to the `npm start` process itself stops web and worker, leaving no
 * process behind. It starts a second copy of the app (the build the suite's server made is reused) on its own
 * port and data folder.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3100) + 50;

/** Process ids below `root` in the process tree, from /proc. */
function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name may hold spaces: the fields after its closing parenthesis are fixed.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(Number(entry), ppid);
    } catch {}
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const [child, parent] of parents)
      if (parent === pid) {
        found.push(child);
        walk(child);
      }
  };
  walk(root);
  return found;
}

const alive = (pid: number) =>
  fs.existsSync(`/proc/${pid}`) && !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));

/** Local addresses listening on `port`, as "127.0.0.1" / "0.0.0.0" / "::" …, from the kernel's socket tables. */
function listeners(port: number): string[] {
  const out: string[] = [];
  for (const [file, v6] of [
    ["/proc/net/tcp", false],
    ["/proc/net/tcp6", true],
  ] as const) {
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, "utf8").trim().split("\n").slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      const [hexAddr, hexPort] = (local ?? "").split(":");
      if (state !== "0A" || Number.parseInt(hexPort ?? "", 16) !== port || !hexAddr) continue;
      if (v6)
        out.push(/^0+$/.test(hexAddr) ? "::" : hexAddr.endsWith("0100007F") ? "::ffff:127.0.0.1" : hexAddr);
      else
        out.push(
          (hexAddr.match(/../g) ?? [])
            .reverse()
            .map((b) => Number.parseInt(b, 16))
            .join("."),
        );
    }
  }
  return out;
}

async function startApp(name: string): Promise<ChildProcess> {
  const dir = path.resolve(`e2e/.artifacts/${PORT}/${name}-${Date.now()}`);
  fs.mkdirSync(dir, { recursive: true });
  const configFile = path.join(dir, "dreamgym.config.json");
  fs.writeFileSync(configFile, JSON.stringify({ demo: { seedOnEmpty: false } }));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(PORT),
    DREAMGYM_DATA_DIR: dir,
    DREAMGYM_CONFIG: configFile,
  };
  delete env.HOST;
  const npm = spawn("npm", ["start"], { env, stdio: "ignore" });
  // On a loaded machine the start (migrations, the first admin's password hash, next start) takes a while.
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${PORT}/api/trpc/users.me`);
      if (res.ok) return npm;
    } catch {}
    if (npm.exitCode !== null) throw new Error(`npm start exited with ${npm.exitCode}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  // Leave nothing behind on the port for the next test.
  for (const child of descendants(npm.pid as number)) if (alive(child)) process.kill(child, "SIGKILL");
  npm.kill("SIGKILL");
  throw new Error("npm start did not answer within 150 s");
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  test(`npm start listens on loopback and stops web and worker on ${signal} sent to npm itself`, async () => {
    test.setTimeout(240_000);
    const npm = await startApp(signal);
    const pid = npm.pid as number;
    expect(listeners(PORT)).toEqual(["127.0.0.1"]);
    const tree = descendants(pid);
    expect(tree.length).toBeGreaterThanOrEqual(2); // at least the web server and the worker

    const exited = new Promise<number | null>((resolve) => npm.once("exit", (code) => resolve(code)));
    process.kill(pid, signal);
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r("timeout"), 20_000))]);
    expect(code, "npm start exits within 20 s").not.toBe("timeout");
    await expect.poll(() => tree.filter(alive), { timeout: 10_000 }).toEqual([]);
    expect(listeners(PORT)).toEqual([]);
  });
}
