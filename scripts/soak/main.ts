/**
 * `npm run soak [-- --minutes 2 --db sqlite|postgres --seed 1 --postgres-url postgresql://… --keep]`: the whole
 * system under mixed load and faults at once (soak.ts), then every store audited. Prints a line per event as it
 * goes, then a table of counts; exits 1 on any problem.
 */
import { Command, InvalidArgumentError, Option } from "commander";
import { undoOnStopSignals } from "../chaos/onStop";
import { runSoak, type SoakReport } from "./soak";

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new InvalidArgumentError(`expected a positive number, got "${value}"`);
  return n;
}

function wholeNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new InvalidArgumentError(`expected a whole number, got "${value}"`);
  return n;
}

const program = new Command("soak")
  .option("--minutes <n>", "minutes of load and faults (then the jobs drain)", positiveNumber, 1)
  .addOption(new Option("--db <kind>", "the database").choices(["sqlite", "postgres"]).default("sqlite"))
  .option("--seed <n>", "seed of the schedule", wholeNumber, 1)
  .option("--workers <n>", "worker processes", wholeNumber, 3)
  .option(
    "--postgres-url <url>",
    "PostgreSQL server whose role may create databases (default: DREAMGYM_TEST_POSTGRES_URL)",
  )
  .option("--keep", "keep the data folder (every process's log is in it)")
  .parse();
const opts = program.opts<{
  minutes: number;
  db: "sqlite" | "postgres";
  seed: number;
  workers: number;
  postgresUrl?: string;
  keep?: boolean;
}>();

undoOnStopSignals((line) => process.stderr.write(`${line}\n`));
const postgresUrl = opts.postgresUrl ?? process.env.DREAMGYM_TEST_POSTGRES_URL;
const report = await runSoak({
  minutes: opts.minutes,
  seed: opts.seed,
  db: opts.db,
  workers: opts.workers,
  ...(postgresUrl ? { postgresUrl } : {}),
  keep: opts.keep === true,
  log: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(`${summary(report)}\n${JSON.stringify(report)}\n`);
process.exit(report.problems.length ? 1 : 0);

function summary(r: SoakReport): string {
  const c = r.counts;
  const a = r.audit;
  const rows: [string, string][] = [
    [
      "runs",
      `${c.runs} created: ${c.runsSucceeded} succeeded and kept, ${c.runsDeleted} deleted once finished`,
    ],
    ["imports", `${c.imports} queued`],
    ["deletions", `${c.runsDeleted} runs, ${c.importsDeleted} imports`],
    ["teacher jobs", `${c.teacherJobs} (${c.traces} traces)`],
    ["env-server episodes", `${c.envEpisodes} (${c.envSteps} steps, ${c.envErrors} errors)`],
    ["UI reads", `${r.counts.uiReads} (${c.uiErrors} errors)`],
    ["kills (kill -9)", `${c.kills} (${c.killsHoldingJobs} of a worker holding a job)`],
    ["pauses (SIGSTOP)", `${c.pauses} (${c.pausesReclaimed} with the job taken meanwhile)`],
    ["disk-full episodes", `${c.diskFull}`],
    ["lock episodes", `${c.locks}`],
    [
      "jobs",
      `${c.jobsSucceeded}/${c.jobs} succeeded; ${c.crashes} crashes, ${c.lapses} lapses counted; ${c.jobsWaited} waited out a fault`,
    ],
    ["audit: runs", `${a.runs}`],
    ["audit: trajectories", `${a.trajectories}`],
    ["audit: steps", `${a.steps} (${a.pendingSteps} pending)`],
    ["audit: LanceDB", `${a.lanceRows} rows, ${a.lanceIds} distinct ids`],
    ["audit: metrics", `${a.metrics}`],
    ["audit: task stats", `${a.taskStats}`],
    ["audit: annotations", `${a.annotations}`],
    ["audit: checkpoints", `${a.checkpoints}`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return [
    `soak: ${r.plan.minutes} min on ${r.database}, seed ${r.plan.seed} (plan ${r.plan.fingerprint}), ${r.seconds.toFixed(0)} s in all`,
    ...r.skipped.map((s) => `  (${s})`),
    ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`),
    ...(r.notes.length ? [`notes (${r.notes.length}):`, ...r.notes.slice(0, 10).map((n) => `  - ${n}`)] : []),
    r.problems.length
      ? `PROBLEMS (${r.problems.length}):`
      : "no problem: nothing lost, nothing twice, nothing stuck, the audit is clean",
    ...r.problems.map((p) => `  - ${p}`),
  ].join("\n");
}
