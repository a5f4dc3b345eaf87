import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { Rng } from "@/core/util/random";
import { sleep } from "@/server/queue/worker";
import { onStop } from "../chaos/onStop";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** A port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** `npm run env-server` (scripts/envServer.ts), as its own process. */
export class EnvServerProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<number | null> = Promise.resolve(null);

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    readonly port: number,
    private readonly logFile: string,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts it and resolves once it answers /health. */
  async start(timeoutMs = 120_000): Promise<void> {
    const log = fs.openSync(this.logFile, "a");
    const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "envServer.ts")], {
      cwd: ROOT,
      env: { ...this.env, ENV_SERVER_PORT: String(this.port), ENV_SERVER_HOST: "127.0.0.1" },
      stdio: ["ignore", log, log],
    });
    fs.closeSync(log);
    this.child = child;
    const undo = onStop(() => this.kill());
    this.exited = new Promise((resolve) =>
      child.once("exit", (code) => {
        undo();
        resolve(code);
      }),
    );
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the environment server exited (${child.exitCode})`);
      try {
        const res = await fetch(`${this.url}/health`);
        if (res.ok) return;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error("the environment server did not answer /health in time");
      await sleep(250);
    }
  }

  /** SIGTERM: open episodes are recorded as abandoned, pending writes are written; resolves with its exit code. */
  async stop(timeoutMs = 60_000): Promise<number | null> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }

  kill(): void {
    if (this.child && this.child.exitCode === null) this.child.kill("SIGKILL");
  }
}

interface StepReply {
  observation: { available_actions: string[]; instruction: string; text: string };
  reward: number | null;
  done: boolean;
  metadata?: { episode_id: string | null; trajectory_id: string | null; run_id: string | null };
}

export interface PlayedEpisode {
  domain: "shop" | "household";
  mode: "real" | "synthetic";
  episodeId: string;
  trajectoryId: string;
  /** Steps the server answered. */
  steps: number;
  done: boolean;
}

async function post(url: string, body: unknown): Promise<StepReply> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(120_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as StepReply;
}

/** The scripted agent of the Python client's self-test: search for the instruction, then click forward. */
function choose(reply: StepReply, step: number): string {
  const actions = reply.observation.available_actions;
  if (actions.some((a) => a.startsWith("search["))) {
    const words = reply.observation.instruction
      .toLowerCase()
      .replace(/[^a-z0-9 ]/g, " ")
      .split(/\s+/)
      .filter(Boolean);
    return `search[${words.slice(0, 6).join(" ")}]`;
  }
  const clicks = actions.filter(
    (a) => a.startsWith("click[") && !a.toLowerCase().includes("back") && !a.toLowerCase().includes("prev"),
  );
  if (clicks.length) return (step < 2 ? clicks[Math.min(step, clicks.length - 1)] : clicks.at(-1)) as string;
  return actions.length ? (actions[step % actions.length] as string) : "look";
}

/** Steps after which an episode is left (the server records it as abandoned when it idles out or stops). */
const MAX_STEPS = 60;

/** Plays episodes over OpenEnv's HTTP routes, domain, mode and task drawn from its seed. */
export class EpisodePlayer {
  private readonly rng: Rng;

  constructor(
    private readonly url: string,
    seed: number,
    client: number,
  ) {
    this.rng = new Rng(`soak-env:${seed}:${client}`);
  }

  async play(): Promise<PlayedEpisode> {
    const domain = this.rng.pick(["shop", "household"] as const);
    const mode = this.rng.pick(["real", "synthetic"] as const);
    let reply = await post(`${this.url}/reset`, { domain, mode, seed: this.rng.int(0, 500) });
    const episodeId = reply.metadata?.episode_id;
    const trajectoryId = reply.metadata?.trajectory_id;
    if (!episodeId || !trajectoryId) throw new Error(`reset answered no episode or trajectory id`);
    let steps = 0;
    while (!reply.done && steps < MAX_STEPS) {
      reply = await post(`${this.url}/step`, {
        episode_id: episodeId,
        action: { action: choose(reply, steps) },
      });
      steps++;
    }
    return { domain, mode, episodeId, trajectoryId, steps, done: reply.done };
  }
}
