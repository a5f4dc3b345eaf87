/**
 * Where a worker thread starts: one JavaScript file bundled from the thread's TypeScript module, instead of a boot
 * module that registers the TypeScript loader in the thread (worker threads do not inherit the parent's --import
 * hooks on this Node). The loader resolves and loads every module of the thread one by one on a hooks thread of
 * its own: a train job's writer thread took 0.95 s and 1.5 s of CPU to start that way, against 0.44 s and 0.6 s
 * from a bundle (bench/rollouts.ts), CPU that the job's rollouts compete for on a 2-core machine. Packages stay
 * outside the bundle (they are JavaScript already, and some are native), so the bundle is written under the
 * project's node_modules/.cache, where they resolve. Made once per process and entry, named by its content, so
 * processes that start at once write the same file. When bundling cannot be done (no esbuild, a read-only
 * tree), the thread starts from its boot module, as before.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildSync } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const CACHE = path.join(ROOT, "node_modules", ".cache", "dreamgym-threads");

const entries = new Map<string, URL>();

/** The URL to start a thread from: the bundle of `module` (a .ts file), or `boot` when there cannot be one. */
export function threadEntry(module: URL, boot: URL): URL {
  let entry = entries.get(module.href);
  // A long-lived worker's bundle may have been pruned by a process running newer code: made again, then.
  if (!entry || (entry !== boot && !fs.existsSync(fileURLToPath(entry)))) {
    entry = bundle(module) ?? boot;
    entries.set(module.href, entry);
  }
  return entry;
}

/** Bundles of other versions of a module are removed once this old: the cache does not grow with every edit. */
const PRUNE_AFTER_MS = 24 * 60 * 60 * 1000;

function prune(name: string, keep: string): void {
  for (const file of fs.readdirSync(CACHE)) {
    const other = path.join(CACHE, file);
    if (other === keep || !file.startsWith(`${name}-`)) continue;
    try {
      if (Date.now() - fs.statSync(other).mtimeMs > PRUNE_AFTER_MS) fs.rmSync(other, { force: true });
    } catch {
      // Another process pruned it first.
    }
  }
}

function bundle(module: URL): URL | undefined {
  const source = fileURLToPath(module);
  const name = path.basename(source, ".ts");
  try {
    const [output] = buildSync({
      entryPoints: [source],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      tsconfig: path.join(ROOT, "tsconfig.json"),
      write: false,
      logLevel: "silent",
    }).outputFiles;
    if (!output) throw new Error("esbuild wrote nothing");
    const hash = createHash("sha256").update(output.contents).digest("hex").slice(0, 16);
    const file = path.join(CACHE, `${name}-${hash}.mjs`);
    if (!fs.existsSync(file)) {
      fs.mkdirSync(CACHE, { recursive: true });
      // Whole or not at all: another process may be starting the same thread.
      const partial = `${file}.${process.pid}.partial`;
      fs.writeFileSync(partial, output.contents);
      fs.renameSync(partial, file);
      prune(name, file);
    }
    return pathToFileURL(file);
  } catch (error) {
    console.warn(
      `starting ${path.basename(source)} threads through the TypeScript loader: bundling failed (${(error as Error).message.split("\n")[0]})`,
    );
    return undefined;
  }
}
