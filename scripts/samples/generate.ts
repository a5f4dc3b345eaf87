import fs from "node:fs";
import path from "node:path";
import { WEB_ADMIN_SAMPLE_FILE } from "@/server/demo/sampleFile";
import { DEFAULT_COUNT, DEFAULT_SEED, generateWebAdmin, webAdminJsonl } from "./webAdmin";

/**
 * Writes samples/web-admin.jsonl (README "Importing trajectories"). `npm run sample:web` regenerates the
 * committed file; `npm run sample:web -- --seed S --count N --out FILE` writes another one.
 */
function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const seed = option("seed") ?? DEFAULT_SEED;
const count = Number(option("count") ?? DEFAULT_COUNT);
if (!Number.isInteger(count) || count < 1)
  throw new Error(`--count must be a positive integer, got ${option("count")}`);
const out = option("out") ?? WEB_ADMIN_SAMPLE_FILE;
const lines = generateWebAdmin(seed, count);
fs.writeFileSync(out, webAdminJsonl(lines));
const steps = lines.reduce((n, l) => n + l.steps.length, 0);
const successes = lines.filter((l) => l.steps.at(-1)?.success).length;
console.log(
  `${path.relative(process.cwd(), out)}: ${lines.length} trajectories, ${new Set(lines.map((l) => l.task_id)).size} tasks, ${steps} steps, ${successes} successful, ${fs.statSync(out).size} bytes`,
);
