/**
 * `npm run chaos [-- --kills 12 --seed 1 --short --keep --database-url postgresql://…]`: two workers, a queue of import, collect, teacher and
 * train jobs, a kill -9 of one of them every few seconds; then every count checked. Exits 1 on any problem.
 */
import { Command, InvalidArgumentError } from "commander";
import { runChaos } from "./chaos";
import { undoOnStopSignals } from "./onStop";
import { FULL_WAVE, SHORT_WAVE } from "./workload";

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new InvalidArgumentError(`expected a whole number, got "${value}"`);
  return n;
}

const program = new Command("chaos")
  .option("--kills <n>", "kill -9s to deal (at least)", positiveInt, 12)
  .option("--seed <n>", "seed of the kill schedule", positiveInt, 1)
  .option("--short", "the small queue that `npm test` runs")
  .option("--lease <ms>", "the workers' lease", positiveInt, 1_500)
  .option("--keep", "keep the data folder (logs of both workers are in it)")
  .option(
    "--database-url <url>",
    "the database (e.g. an empty PostgreSQL database); default: a fresh SQLite file",
  )
  .parse();
const opts = program.opts<{
  kills: number;
  seed: number;
  short?: boolean;
  lease: number;
  keep?: boolean;
  databaseUrl?: string;
}>();

undoOnStopSignals((line) => process.stderr.write(`${line}\n`));
const report = await runChaos({
  kills: opts.kills,
  seed: opts.seed,
  wave: opts.short ? SHORT_WAVE : FULL_WAVE,
  gapMs: [1_500, 5_000],
  leaseMs: opts.lease,
  timeoutMs: 30 * 60_000,
  keep: opts.keep === true,
  ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}),
  log: (line) => process.stderr.write(`${line}\n`),
});

const c = report.counts;
const e = report.expected;
const lines = [
  `chaos: ${report.kills.length} kills in ${report.seconds.toFixed(0)} s over ${report.waves} wave(s)`,
  `  kills         ${Object.entries(
    report.kills.reduce<Record<string, number>>((byType, k) => {
      byType[k.type] = (byType[k.type] ?? 0) + 1;
      return byType;
    }, {}),
  )
    .map(([type, n]) => `${n} during ${type}`)
    .join(", ")}`,
  `  jobs          ${report.jobs.succeeded}/${report.jobs.total} succeeded (${Object.entries(
    report.jobs.byType,
  )
    .map(([t, n]) => `${n} ${t}`)
    .join(", ")}), ${report.jobs.crashes} crashes survived`,
  `  trajectories  ${c.trajectories} (offline ${e.offlineTrajectories} + imported ${e.importedTrajectories} + train rollouts ${e.trainRollouts} expected)`,
  `  steps         ${c.steps} in the database, ${c.lanceRows} rows / ${c.lanceIds} distinct ids in LanceDB, ${c.pendingSteps} pending`,
  `  metrics       ${c.metrics} (expected ${e.metrics})`,
  `  task stats    ${c.taskStats}`,
  `  annotations   ${c.annotations} (expected ${e.annotations})`,
  `  checkpoints   ${c.checkpoints}`,
  report.problems.length
    ? `PROBLEMS (${report.problems.length}):`
    : "no problem: nothing lost, nothing twice",
  ...report.problems.map((p) => `  - ${p}`),
];
process.stdout.write(`${lines.join("\n")}\n${JSON.stringify(report)}\n`);
process.exit(report.problems.length ? 1 : 0);
