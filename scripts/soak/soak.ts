import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { RunConfig } from "@/core/train/config";
import { loadConfig } from "@/env";
import type { Prisma } from "@/generated/prisma/client";
import { type AuditCounts, auditStores } from "@/server/audit/audit";
import { collectOffline } from "@/server/collect/collectOffline";
import { createDb, type Db } from "@/server/db";
import { migrateDeploy } from "@/server/migrate";
import { CRASHES_AT_ONE_POINT, crashPoint, enqueue } from "@/server/queue/queue";
import { sleep } from "@/server/queue/worker";
import type { LanceReplayBuffer } from "@/server/replay/lanceReplayBuffer";
import { openConfiguredReplayBuffer } from "@/server/replay/openReplayBuffer";
import { deleteImport } from "@/server/retention/deleteImport";
import { deleteRun } from "@/server/retention/deleteRun";
import { createRun } from "@/server/train/runStore";
import { onStop } from "../chaos/onStop";
import { WorkerProcess } from "../chaos/workers";
import { checkStores } from "./checks";
import { EnvServerProcess, EpisodePlayer, freePort, type PlayedEpisode } from "./envServer";
import { holdLock, pauseGroup, SmallDisk } from "./faults";
import { type ImportFile, isNotFound, sampleLines, soakRunConfig, UiReader, writeImportFile } from "./load";
import { type PlanOptions, planCounts, planSoak, RUN_PRESETS, type SoakEvent, type SoakPlan } from "./plan";
import { createPostgresDatabase } from "./postgres";

export interface SoakOptions {
  minutes: number;
  seed: number;
  db: "sqlite" | "postgres";
  /** PostgreSQL: a server whose role may create databases; the soak works in a fresh database of its own there. */
  postgresUrl?: string;
  /** Worker processes (default 3). */
  workers?: number;
  /** The workers' lease (default 6 s): a pause outlasts it, a full disk or a held lock does not. */
  leaseMs?: number;
  /** How long the jobs may take to settle once the load stops (default: 3 minutes plus the load's length). */
  drainMs?: number;
  /** Size of the small disk the SQLite database lives on (MB). */
  diskMb?: number;
  /** Keep the data folder (logs of every process are in it). */
  keep?: boolean;
  log?: (line: string) => void;
}

export interface TrackedRun {
  index: number;
  runId: string;
  jobId: string;
  preset: number;
  seed: number;
  config: RunConfig;
  deleted: boolean;
}

export interface TrackedImport {
  jobId: string;
  file: ImportFile;
  deleted: boolean;
}

export interface TrackedTeacher {
  jobId: string;
  domain: string;
  limit: number;
}

/** A job as the soak last saw it: deleted runs take their jobs with them, so their counts are kept from here. */
export interface SeenJob {
  id: string;
  type: string;
  status: string;
  crashes: number;
  lapses: number;
  waits: number;
  /** The most waits in a row seen (the count goes back to 0 when the job succeeds). */
  maxWaits: number;
  error: string | null;
}

export interface FaultError {
  what: string;
  message: string;
  /** During a fault of the database (full disk, held lock) or within seconds of its end. */
  duringFault: boolean;
}

export interface SoakState {
  runs: TrackedRun[];
  imports: TrackedImport[];
  teachers: TrackedTeacher[];
  jobs: Map<string, SeenJob>;
  /** kill -9s that hit a worker holding the job: each must be counted as one crash of it, and nothing else. */
  killsOf: Map<string, number>;
  episodes: PlayedEpisode[];
  envErrors: FaultError[];
  uiErrors: FaultError[];
  /** Steps of deleted runs and imports, with what they belonged to: LanceDB rows left of them are named so. */
  deletedSteps: Map<string, string>;
  /** What the soak itself could not do (a run it could not create, a deletion refused). */
  loadErrors: string[];
}

export interface SoakReport {
  plan: { seed: number; minutes: number; fingerprint: string; counts: Record<string, number> };
  seconds: number;
  database: "sqlite" | "postgres";
  skipped: string[];
  counts: {
    runs: number;
    runsSucceeded: number;
    runsDeleted: number;
    imports: number;
    importsDeleted: number;
    teacherJobs: number;
    traces: number;
    envEpisodes: number;
    envSteps: number;
    envErrors: number;
    uiReads: number;
    uiErrors: number;
    kills: number;
    killsHoldingJobs: number;
    pauses: number;
    pausesReclaimed: number;
    diskFull: number;
    locks: number;
    jobs: number;
    jobsSucceeded: number;
    crashes: number;
    lapses: number;
    /** Jobs seen waiting out a fault of the machine (a full disk, a locked database) at least once. */
    jobsWaited: number;
  };
  audit: AuditCounts;
  /** Errors met during faults: expected, shown, not problems. */
  notes: string[];
  problems: string[];
}

/** What the faults did. */
export interface FaultTally {
  kills: number;
  /** Kills of a worker that held a job then. */
  killsHoldingJobs: number;
  pauses: number;
  /** Pauses during which another worker took the paused worker's job. */
  pausesReclaimed: number;
  diskFull: number;
  locks: number;
}

const WORKER_NAMES = ["A", "B", "C", "D", "E", "F"];

/**
 * The small disk's size: room for what the load stores (a 30-minute soak's database grew by about 10 MB a minute,
 * and SQLite does not give deleted rows' pages back), three times over. The filler fills whatever is free, so the
 * disk-full episodes are the same at any size; a disk the data itself filled would never free again, and every
 * job would wait on it forever (as one 30-minute soak on a fixed 256 MB disk did).
 */
function diskMbFor(minutes: number): number {
  return 256 + Math.ceil(minutes * 32);
}

/** Between two episodes of one environment-server client. */
const EPISODE_GAP_MS = 1_500;
/** After a fault ends, errors for this long are still put down to it. */
const FAULT_GRACE_MS = 10_000;
/** A worker resumed after a pause is not killed for this long: it must get to record its lapse first. */
const AFTER_PAUSE_MS = 30_000;

/**
 * `npm run soak`: the whole system under mixed load and faults at once, then the stores audited. Training runs of
 * both domains, imports, teacher jobs, deletions of finished runs and imports, environment-server episodes and UI
 * reads go on together, while workers are killed (kill -9) and restarted, paused past their lease, the SQLite
 * database's disk fills up and another process holds the database's lock. Then every job must settle, and every
 * run not deleted must have finished with all its rollouts, nothing stored twice, nothing stuck, and the audit
 * find nothing.
 */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? (() => {});
  const started = Date.now();
  const stamp = () => `${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s`;
  const say = (line: string) => log(`${stamp()} ${line}`);
  const leaseMs = options.leaseMs ?? 6_000;
  const workerCount = Math.min(WORKER_NAMES.length, Math.max(1, options.workers ?? 3));
  const lines = sampleLines();
  const plan = planSoak({ minutes: options.minutes, seed: options.seed, leaseMs, sampleLines: lines.length });
  const skipped: string[] = [];

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-soak-"));
  fs.mkdirSync(path.join(dir, "logs"), { recursive: true });
  let disk: SmallDisk | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  // On a stop signal the finally below never runs: the same undo, registered before anything exists to undo.
  const undoOnStop = onStop(async () => {
    disk?.unmount();
    await dropDatabase?.();
    if (!options.keep) fs.rmSync(dir, { recursive: true, force: true });
  });
  try {
    let databaseUrl: string;
    if (options.db === "sqlite") {
      const mounted = SmallDisk.mount(path.join(dir, "disk"), options.diskMb ?? diskMbFor(options.minutes));
      if (typeof mounted === "string") {
        skipped.push(`full-disk episodes skipped: ${mounted}`);
        databaseUrl = `file:${path.join(dir, "dreamgym.db")}`;
      } else {
        disk = mounted;
        databaseUrl = `file:${path.join(disk.dir, "dreamgym.db")}`;
      }
    } else {
      if (!options.postgresUrl)
        throw new Error("--db postgres needs a PostgreSQL server URL (--postgres-url)");
      skipped.push(
        "full-disk episodes skipped: the database is PostgreSQL, not a SQLite file on a small disk",
      );
      const database = await createPostgresDatabase(options.postgresUrl);
      databaseUrl = database.url;
      dropDatabase = database.drop;
    }
    for (const s of skipped) say(s);
    return await soakIn({
      options,
      plan,
      dir,
      databaseUrl,
      skipped,
      started,
      say,
      stamp,
      leaseMs,
      workerCount,
      disk,
    });
  } finally {
    if (disk && options.keep)
      for (const file of fs.readdirSync(disk.dir).filter((f) => f.startsWith("dreamgym.db")))
        fs.copyFileSync(path.join(disk.dir, file), path.join(dir, file));
    disk?.unmount();
    await dropDatabase?.().catch((error) => say(`could not drop the soak's database: ${error.message}`));
    if (!options.keep) fs.rmSync(dir, { recursive: true, force: true });
    undoOnStop();
  }
}

interface SoakContext {
  options: SoakOptions;
  plan: SoakPlan;
  dir: string;
  databaseUrl: string;
  skipped: string[];
  started: number;
  say: (line: string) => void;
  stamp: () => string;
  leaseMs: number;
  workerCount: number;
  disk: SmallDisk | undefined;
}

/** What the soak's phases share: the stores, the processes, and what the soak has seen. */
interface SoakParts {
  db: Db;
  workers: WorkerProcess[];
  envServer: EnvServerProcess;
  state: SoakState;
  tally: FaultTally;
  settings: ReturnType<typeof loadConfig>;
}

/** The soak proper, in its data folder and database. */
async function soakIn(ctx: SoakContext): Promise<SoakReport> {
  const { options, plan, dir, databaseUrl, say, leaseMs, workerCount } = ctx;

  const configFile = path.join(dir, "soak.config.json");
  fs.writeFileSync(
    configFile,
    JSON.stringify({
      worker: { leaseMs, heartbeatMs: Math.max(200, Math.floor(leaseMs / 6)), pollMs: 200, loops: 1 },
    }),
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DREAMGYM_DATA_DIR: dir,
    DREAMGYM_CONFIG: configFile,
    DATABASE_URL: databaseUrl,
    LANCEDB_DIR: path.join(dir, "lancedb"),
  };
  const settings = loadConfig(env);
  await migrateDeploy(databaseUrl);
  const db = await createDb(databaseUrl);
  const workers = WORKER_NAMES.slice(0, workerCount).map(
    (name) => new WorkerProcess(name, env, path.join(dir, "logs", `worker-${name}.log`)),
  );
  const envServer = new EnvServerProcess(env, await freePort(), path.join(dir, "logs", "env-server.log"));
  const state: SoakState = {
    runs: [],
    imports: [],
    teachers: [],
    jobs: new Map(),
    killsOf: new Map(),
    episodes: [],
    envErrors: [],
    uiErrors: [],
    loadErrors: [],
    deletedSteps: new Map(),
  };
  const tally: FaultTally = {
    kills: 0,
    killsHoldingJobs: 0,
    pauses: 0,
    pausesReclaimed: 0,
    diskFull: 0,
    locks: 0,
  };

  const parts: SoakParts = { db, workers, envServer, state, tally, settings };
  try {
    say(
      `soak on ${options.db} (seed ${plan.seed}, ${plan.minutes} min of load, plan ${plan.fingerprint}: ${describeCounts(planCounts(plan))}) in ${dir}`,
    );
    // The offline data the synthetic runs' experience model and the teacher jobs read, written before any fault.
    const traces = (domain: string) =>
      plan.events.reduce((n, e) => n + (e.kind === "teacher" && e.domain === domain ? e.limit : 0), 0);
    for (const domain of ["shop", "household"] as const)
      await collectOffline(db, {
        domain,
        policy: "expert",
        episodes: Math.max(40, traces(domain)),
        split: "train",
        epsilon: 0,
        seed: 1,
        offset: 0,
      });
    await envServer.start();
    say(`environment server on ${envServer.url}`);
    for (const w of workers) w.start();
    say(`workers ${workers.map((w) => w.name).join(", ")} started (lease ${leaseMs / 1000} s)`);
    const { chaos, ui } = await applyLoad(ctx, parts);
    await drainSoak(ctx, parts, chaos);
    return await auditSoak(ctx, parts, ui);
  } finally {
    for (const w of workers) {
      if (w.pid !== undefined) signalGroup(w.pid, "SIGCONT");
      await w.kill();
    }
    envServer.kill();
    await db.$disconnect();
  }
}

/** The load and the faults, on the plan's schedule, until the load is over and the faults under way have ended. */
async function applyLoad(ctx: SoakContext, p: SoakParts): Promise<{ chaos: Faults; ui: UiReader }> {
  const { plan, dir, databaseUrl, say, stamp, leaseMs, disk } = ctx;
  const { db, workers, envServer, state, tally, settings } = p;
  const faults = new FaultWindows();
  const chaos = new Faults(db, workers, state, tally, faults, say, {
    leaseMs,
    databaseUrl,
    ...(disk ? { disk } : {}),
  });
  const load = new Load(
    db,
    dir,
    state,
    faults,
    say,
    () => openConfiguredReplayBuffer(db, settings),
    () => stamp().trim(),
  );
  const loadStart = Date.now();
  let stopping = false;
  const background: Promise<void>[] = [];
  background.push(pollJobs(db, state, () => stopping, say));
  background.push(
    (async () => {
      while (!stopping) {
        chaos.watch();
        await sleep(1_000);
      }
    })(),
  );
  for (const client of [0, 1])
    background.push(playEpisodes(envServer.url, plan.seed, client, state, faults, () => stopping, say));
  const ui = new UiReader(db, plan.seed, () => state.runs.map((r) => r.runId));
  background.push(readUi(ui, state, faults, () => stopping));
  background.push(
    reportProgress(
      db,
      state,
      ui,
      () => stopping,
      say,
      () => Date.now() - loadStart < plan.loadMs,
    ),
  );

  const chains = { load: Promise.resolve(), kills: Promise.resolve(), faults: Promise.resolve() };
  for (const event of plan.events) {
    await sleep(Math.max(0, loadStart + event.at - Date.now()));
    if (event.kind === "kill")
      chains.kills = chains.kills.then(() => chaos.kill(event)).catch(chaosError(state, event));
    else if (event.kind === "pause" || event.kind === "disk-full" || event.kind === "lock")
      chains.faults = chains.faults.then(() => chaos.exclusive(event)).catch(chaosError(state, event));
    else chains.load = chains.load.then(() => load.apply(event)).catch(chaosError(state, event));
  }
  await sleep(Math.max(0, loadStart + plan.loadMs - Date.now()));
  say("load over: no more faults or new work; waiting for the faults under way to end");
  await chains.faults;
  await chains.kills;
  await chaos.restarts();
  await chains.load;
  stopping = true;
  await Promise.all(background);
  return { chaos, ui };
}

/** Every job settled, the environment server stopped, a last index job, the workers stopped. */
async function drainSoak(ctx: SoakContext, p: SoakParts, chaos: Faults): Promise<void> {
  const { options, plan, say } = ctx;
  const { db, workers, envServer, state } = p;
  const drainMs = options.drainMs ?? 180_000 + plan.loadMs;
  say(`waiting up to ${Math.round(drainMs / 1000)} s for every job to settle`);
  const settled = await untilSettled(db, Date.now() + drainMs, say, () => chaos.watch());
  if (!settled)
    state.loadErrors.push(`jobs did not settle within ${drainMs / 1000} s: ${await openJobs(db)}`);
  const envExit = await envServer.stop();
  say(`environment server stopped (exit ${envExit})`);
  if (envExit !== 0) state.loadErrors.push(`the environment server exited ${envExit} on SIGTERM`);
  // What the last killed workers and the environment server left unindexed goes into LanceDB by an index job.
  const index = await enqueue(db, "index", { rebuild: false });
  if (!(await untilJob(db, index.id, Date.now() + 120_000)))
    state.loadErrors.push(`the final index job did not succeed: ${await openJobs(db)}`);
  await Promise.all(workers.map((w) => w.stop()));
  say("workers stopped; auditing");
  await refreshJobs(db, state);
}

/** The audit and the soak's own checks, as the report. */
async function auditSoak(ctx: SoakContext, p: SoakParts, ui: UiReader): Promise<SoakReport> {
  const { options, plan, skipped, started } = ctx;
  const { db, state, tally, settings } = p;
  const notes: string[] = [];
  const store = await openConfiguredReplayBuffer(db, settings);
  try {
    const audit = await auditStores(db, store);
    const checked = await checkStores(db, state);
    const duringFaults = [...state.envErrors, ...state.uiErrors].filter((e) => e.duringFault);
    const outside = [...state.envErrors, ...state.uiErrors].filter((e) => !e.duringFault);
    for (const e of duringFaults) notes.push(`${e.what} failed during a fault: ${e.message}`);
    notes.push(...(await orphanRows(db, store, state)));
    const problems = [
      ...state.loadErrors,
      ...checked.problems,
      ...audit.problems.map((p) => `audit: ${p}`),
      ...outside.map((e) => `${e.what} failed outside any fault: ${e.message}`),
    ];
    if (audit.counts.pendingSteps > 0)
      problems.push(`${audit.counts.pendingSteps} steps are still not in LanceDB after the final index job`);
    const seen = [...state.jobs.values()];
    return {
      plan: {
        seed: plan.seed,
        minutes: plan.minutes,
        fingerprint: plan.fingerprint,
        counts: planCounts(plan),
      },
      seconds: (Date.now() - started) / 1000,
      database: options.db,
      skipped,
      counts: {
        runs: state.runs.length,
        runsSucceeded: checked.runsSucceeded,
        runsDeleted: state.runs.filter((r) => r.deleted).length,
        imports: state.imports.length,
        importsDeleted: state.imports.filter((i) => i.deleted).length,
        teacherJobs: state.teachers.length,
        traces: checked.traces,
        envEpisodes: state.episodes.length,
        envSteps: state.episodes.reduce((n, e) => n + e.steps, 0),
        envErrors: state.envErrors.length,
        uiReads: ui.reads,
        uiErrors: state.uiErrors.length,
        ...tally,
        jobs: seen.length,
        jobsSucceeded: seen.filter((j) => j.status === "succeeded").length,
        crashes: seen.reduce((n, j) => n + j.crashes, 0),
        lapses: seen.reduce((n, j) => n + j.lapses, 0),
        jobsWaited: seen.filter((j) => j.maxWaits > 0).length,
      },
      audit: audit.counts,
      notes,
      problems,
    };
  } finally {
    store.close();
  }
}

function describeCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([k, n]) => `${n} ${k}`)
    .join(", ");
}

function chaosError(state: SoakState, event: SoakEvent) {
  return (error: unknown) => {
    state.loadErrors.push(`the soak's ${event.kind} at ${event.at} ms failed: ${(error as Error).message}`);
  };
}

/** When the database was last at fault: errors then (and shortly after) are the fault's. */
export class FaultWindows {
  private active = 0;
  private lastEnd = 0;

  begin(): void {
    this.active++;
  }

  end(): void {
    this.active--;
    this.lastEnd = Date.now();
  }

  now(): boolean {
    return this.within(FAULT_GRACE_MS);
  }

  /** At fault now, or a fault ended less than `ms` ago. */
  within(ms: number): boolean {
    return this.active > 0 || Date.now() - this.lastEnd < ms;
  }
}

/** After a fault ends, the soak's own writes (as the UI's) are tried again for this long. */
const WRITE_GRACE_MS = 30_000;

/**
 * Runs a write of the soak's own (as the UI would make it) again while the database is at fault, or recovering
 * from one; outside faults, its error is the soak's problem.
 */
async function retryDuringFaults<T>(
  faults: FaultWindows,
  what: string,
  say: (line: string) => void,
  write: () => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      return await write();
    } catch (error) {
      const message = (error as Error).message.replace(/\s+/g, " ").trim();
      if (!faults.within(WRITE_GRACE_MS) || Date.now() > deadline) throw new Error(`${what}: ${message}`);
      say(`${what} failed during a fault, tried again in 1 s: ${message.slice(-200)}`);
      await sleep(1_000);
    }
  }
}

/** The work the soak asks for, as the UI would: runs, imports, teacher traces, deletions. */
class Load {
  constructor(
    private readonly db: Db,
    private readonly dir: string,
    private readonly state: SoakState,
    private readonly faults: FaultWindows,
    private readonly say: (line: string) => void,
    private readonly openLance: () => Promise<LanceReplayBuffer>,
    private readonly stamp: () => string,
  ) {}

  async apply(event: SoakEvent): Promise<void> {
    const { db, state, faults, say } = this;
    if (event.kind === "run") {
      const index = state.runs.length;
      const config = soakRunConfig(event.preset, event.seed, index);
      const { runId, jobId } = await retryDuringFaults(faults, "creating a run", say, () =>
        createRun(db, config),
      );
      state.runs.push({
        index,
        runId,
        jobId,
        preset: event.preset,
        seed: event.seed,
        config,
        deleted: false,
      });
      say(`run ${index} queued: ${RUN_PRESETS[event.preset]?.name} (seed ${event.seed}), ${runId}`);
    } else if (event.kind === "import") {
      const file = writeImportFile(this.dir, state.imports.length, event.first, event.lines);
      const job = await retryDuringFaults(faults, "queueing an import", say, () =>
        enqueue(db, "import", { path: file.path, name: file.name }),
      );
      state.imports.push({ jobId: job.id, file, deleted: false });
      say(`import ${file.name} queued: ${file.trajectories} trajectories, ${file.steps} steps`);
    } else if (event.kind === "teacher") {
      const job = await retryDuringFaults(faults, "queueing a teacher job", say, () =>
        enqueue(db, "teacher", { domain: event.domain, limit: event.limit, backend: "embedded", k: 2 }),
      );
      state.teachers.push({ jobId: job.id, domain: event.domain, limit: event.limit });
      say(`teacher job queued: ${event.limit} traces of ${event.domain} steps`);
    } else if (event.kind === "delete-run") await this.deleteRun(event.pick);
    else if (event.kind === "delete-import") await this.deleteImport(event.pick);
  }

  private async rememberSteps(trajectory: Prisma.TrajectoryWhereInput, label: string): Promise<void> {
    const steps = await this.db.step.findMany({ where: { trajectory }, select: { id: true } });
    for (const { id } of steps) this.state.deletedSteps.set(id, label);
  }

  /** LanceDB opened afresh for each deletion, so that it sees every row the workers have written. */
  private async withLance<T>(work: (store: LanceReplayBuffer) => Promise<T>): Promise<T> {
    const store = await this.openLance();
    try {
      return await work(store);
    } finally {
      store.close();
    }
  }

  /**
   * Deletes a finished run: one whose twin (same preset and seed, so the same generated task ids) is kept when there
   * is one, the deletion most likely to take the other run's rows with it if it took more than its own.
   */
  private async deleteRun(pick: number): Promise<void> {
    const { db, state, say } = this;
    const live = state.runs.filter((r) => !r.deleted);
    // Finished, and so is its job: the job indexes the run's steps into LanceDB after the run itself is done.
    const finished = await db.run.findMany({
      where: { id: { in: live.map((r) => r.runId) }, status: "succeeded" },
      select: { id: true },
    });
    const jobsDone = await db.job.findMany({
      where: { id: { in: live.map((r) => r.jobId) }, status: "succeeded" },
      select: { id: true },
    });
    const done = live.filter(
      (r) => finished.some((f) => f.id === r.runId) && jobsDone.some((j) => j.id === r.jobId),
    );
    const twinned = done.filter((r) =>
      live.some((o) => o !== r && o.preset === r.preset && o.seed === r.seed),
    );
    const pool = twinned.length ? twinned : done;
    const run = pool[Math.floor(pick * pool.length)];
    if (!run) {
      say("delete run: no finished run to delete yet");
      return;
    }
    // Its job goes with it: what the job counted (crashes, lapses) is read now, for the final check.
    await refreshJobs(db, state);
    await this.rememberSteps(
      { OR: [{ runId: run.runId }, { task: { runId: run.runId } }] },
      `run ${run.index} (deleted at ${this.stamp()})`,
    );
    const deleted = await retryDuringFaults(this.faults, `deleting run ${run.index}`, say, () =>
      this.withLance((store) => deleteRun(db, run.runId, store)),
    );
    run.deleted = true;
    const twin = live.find((o) => o !== run && o.preset === run.preset && o.seed === run.seed);
    say(
      `run ${run.index} deleted: ${deleted.trajectories} trajectories, ${deleted.steps} steps, ${deleted.generatedTasks} generated tasks${twin ? ` (its twin, run ${twin.index}, is kept)` : ""}${deleted.lanceError ? `; ${deleted.lanceError}` : ""}`,
    );
  }

  private async deleteImport(pick: number): Promise<void> {
    const { db, state, say } = this;
    const live = state.imports.filter((i) => !i.deleted);
    const succeeded = await db.job.findMany({
      where: { id: { in: live.map((i) => i.jobId) }, status: "succeeded" },
      select: { id: true },
    });
    const pool = live.filter((i) => succeeded.some((s) => s.id === i.jobId));
    const chosen = pool[Math.floor(pick * pool.length)];
    if (!chosen) {
      say("delete import: no finished import to delete yet");
      return;
    }
    await this.rememberSteps(
      { importName: chosen.file.name },
      `import ${chosen.file.name} (deleted at ${this.stamp()})`,
    );
    const deleted = await retryDuringFaults(this.faults, `deleting import ${chosen.file.name}`, say, () =>
      this.withLance((store) => deleteImport(db, chosen.file.name, store)),
    );
    chosen.deleted = true;
    say(
      `import ${chosen.file.name} deleted: ${deleted.trajectories} trajectories, ${deleted.steps} steps, ${deleted.tasks} tasks`,
    );
  }
}

/** The faults: kill -9s, pauses past the lease, a full disk, a held database lock. */
class Faults {
  private readonly pending: Promise<void>[] = [];
  private readonly restarting = new Set<WorkerProcess>();
  private readonly paused = new Set<WorkerProcess>();
  private readonly resumedAt = new Map<WorkerProcess, number>();
  private readonly host = os.hostname();

  constructor(
    private readonly db: Db,
    private readonly workers: WorkerProcess[],
    private readonly state: SoakState,
    private readonly tally: FaultTally,
    private readonly faults: FaultWindows,
    private readonly say: (line: string) => void,
    private readonly options: { leaseMs: number; databaseUrl: string; disk?: SmallDisk },
  ) {}

  /** Resolves once every killed worker has been started again. */
  async restarts(): Promise<void> {
    await Promise.all(this.pending);
  }

  /** A worker that exited without being killed is a problem: it is said so, and started again. */
  watch(): void {
    for (const w of this.workers)
      if (w.pid === undefined && !this.restarting.has(w)) {
        this.state.loadErrors.push(`worker ${w.name} exited by itself (its log: logs/worker-${w.name}.log)`);
        this.say(`worker ${w.name} exited by itself; started again`);
        w.start();
      }
  }

  private holderOf(w: WorkerProcess): string | undefined {
    return w.pid === undefined ? undefined : `${this.host}:${w.pid}:`;
  }

  private async runningJobs() {
    return this.db.job.findMany({
      where: { status: "running" },
      select: {
        id: true,
        type: true,
        lockedBy: true,
        leaseToken: true,
        progress: true,
        message: true,
        crashPoint: true,
        crashStreak: true,
      },
    });
  }

  /** Workers that may be hit now: alive, not paused, not just resumed; with the jobs they hold. */
  private async candidates() {
    const running = await this.runningJobs();
    const now = Date.now();
    return this.workers
      .filter((w) => w.pid !== undefined && !this.paused.has(w))
      .filter((w) => now - (this.resumedAt.get(w) ?? 0) > AFTER_PAUSE_MS)
      .map((w) => ({
        worker: w,
        jobs: running.filter((j) => j.lockedBy?.startsWith(this.holderOf(w) ?? "-")),
      }));
  }

  /** kill -9 of a worker's process group (a busy one when there is one within 3 s), started again shortly after. */
  async kill(event: Extract<SoakEvent, { kind: "kill" }>): Promise<void> {
    let busy: Awaited<ReturnType<Faults["candidates"]>> = [];
    let all: typeof busy = [];
    for (let tries = 0; tries < 15; tries++) {
      all = await this.candidates();
      // Not a third crash in a row at one point: the queue rightly fails such a job (CRASHES_AT_ONE_POINT).
      busy = all.filter(
        (c) =>
          c.jobs.length > 0 &&
          c.jobs.every((j) => !(j.crashStreak >= CRASHES_AT_ONE_POINT - 1 && j.crashPoint === crashPoint(j))),
      );
      if (busy.length) break;
      await sleep(200);
    }
    const pool = busy.length ? busy : all;
    const victim = pool[Math.floor(event.pick * pool.length)];
    if (!victim) {
      this.say("kill: no worker to kill now (all paused or just resumed)");
      return;
    }
    const w = victim.worker;
    const holder = this.holderOf(w) as string;
    this.restarting.add(w);
    await w.kill();
    this.tally.kills++;
    // What it held when it died, read after its death: exactly the jobs whose next claim is a crash.
    const held = await this.db.job.findMany({
      where: { status: "running", lockedBy: { startsWith: holder } },
      select: { id: true, type: true, progress: true, message: true },
    });
    for (const j of held) this.state.killsOf.set(j.id, (this.state.killsOf.get(j.id) ?? 0) + 1);
    if (held.length) this.tally.killsHoldingJobs++;
    this.say(
      `kill -9 of worker ${w.name}${held.length ? ` during ${held.map((j) => `${j.type} ${crashPoint(j)}`).join(", ")}` : " (idle)"}; started again in ${event.restartAfterMs} ms`,
    );
    this.pending.push(
      sleep(event.restartAfterMs).then(() => {
        w.start();
        this.restarting.delete(w);
      }),
    );
  }

  async exclusive(event: Extract<SoakEvent, { kind: "pause" | "disk-full" | "lock" }>): Promise<void> {
    if (event.kind === "pause") return this.pause(event);
    if (event.kind === "disk-full") return this.fillDisk(event.ms);
    return this.lock(event.ms, event.table);
  }

  /** SIGSTOP of a worker's group past its lease (another worker may take its job), then SIGCONT. */
  private async pause(event: Extract<SoakEvent, { kind: "pause" }>): Promise<void> {
    let all: Awaited<ReturnType<Faults["candidates"]>> = [];
    let busy: typeof all = [];
    for (let tries = 0; tries < 25 && busy.length === 0; tries++) {
      if (tries > 0) await sleep(200);
      all = await this.candidates();
      busy = all.filter((c) => c.jobs.length > 0);
    }
    const pool = busy.length ? busy : all;
    const victim = pool[Math.floor(event.pick * pool.length)];
    if (!victim?.worker.pid) {
      this.say("pause: no worker to pause now");
      return;
    }
    const w = victim.worker;
    const pid = w.pid as number;
    const holder = this.holderOf(w) as string;
    this.paused.add(w);
    // A paused worker may hold the database's write lock: other processes wait for it as for a held lock.
    this.faults.begin();
    let reclaimed: { type: string }[] = [];
    try {
      const pause = pauseGroup(pid, event.ms);
      await pause.stopped;
      this.tally.pauses++;
      const held = await this.db.job.findMany({
        where: { status: "running", lockedBy: { startsWith: holder } },
        select: { id: true, type: true, leaseToken: true, progress: true, message: true },
      });
      this.say(
        `pause (SIGSTOP) of worker ${w.name} for ${(event.ms / 1000).toFixed(1)} s, past its ${this.options.leaseMs / 1000} s lease${held.length ? `, holding ${held.map((j) => `${j.type} ${crashPoint(j)}`).join(", ")}` : " (idle)"}`,
      );
      await pause.continued;
      // Taken by another worker meanwhile (a new claim, a new lease token): the worker counts it as a lapse, and
      // the crash its reclaim counted is taken back.
      const now = await this.db.job.findMany({
        where: { id: { in: held.map((j) => j.id) } },
        select: { id: true, leaseToken: true },
      });
      reclaimed = held.filter((j) => now.find((n) => n.id === j.id)?.leaseToken !== j.leaseToken);
      if (reclaimed.length) this.tally.pausesReclaimed++;
    } finally {
      signalGroup(pid, "SIGCONT");
      this.faults.end();
      this.paused.delete(w);
      this.resumedAt.set(w, Date.now());
    }
    this.say(
      `resumed worker ${w.name} (SIGCONT)${reclaimed.length ? `: another worker has taken its ${reclaimed.map((j) => j.type).join(", ")} job` : ""}`,
    );
  }

  private async fillDisk(ms: number): Promise<void> {
    const disk = this.options.disk;
    if (!disk) return;
    this.faults.begin();
    try {
      const before = disk.usage();
      const written = disk.fill();
      this.tally.diskFull++;
      this.say(
        `disk full: the database's disk (${mb(before.used)} MB used) filled with ${mb(written)} MB, for ${(ms / 1000).toFixed(1)} s`,
      );
      await disk.freeAfter(ms);
    } finally {
      disk.free();
      this.faults.end();
    }
    this.say("disk has room again");
  }

  private async lock(ms: number, table: string): Promise<void> {
    const sqlite = this.options.databaseUrl.startsWith("file:");
    this.faults.begin();
    try {
      const asked = Date.now();
      const held = holdLock(this.options.databaseUrl, ms, table);
      const at = await held.locked;
      this.tally.locks++;
      this.say(
        `lock: another process holds ${sqlite ? "the database's write lock (BEGIN IMMEDIATE)" : `LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`} for ${(ms / 1000).toFixed(1)} s${at - asked > 1_000 ? ` (it waited ${((at - asked) / 1000).toFixed(1)} s for it)` : ""}`,
      );
      await held.done;
    } finally {
      this.faults.end();
    }
    this.say("lock released");
  }
}

/** A signal to a process group that may be gone already. */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Exited meanwhile.
  }
}

function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(0);
}

/** LanceDB rows of no step, by what their step belonged to (a deleted run or import, or nothing the soak knows). */
async function orphanRows(db: Db, store: LanceReplayBuffer, state: SoakState): Promise<string[]> {
  const rows = new Set<string>();
  for await (const ids of store.ids()) for (const id of ids) rows.add(id);
  for (let cursor: string | undefined; ; ) {
    const page = await db.step.findMany({
      ...(cursor !== undefined ? { where: { id: { gt: cursor } } } : {}),
      orderBy: { id: "asc" },
      take: 5_000,
      select: { id: true },
    });
    if (page.length === 0) break;
    for (const { id } of page) rows.delete(id);
    cursor = page.at(-1)?.id;
  }
  const byOwner = new Map<string, number>();
  for (const id of rows) {
    const owner = state.deletedSteps.get(id) ?? "no run or import the soak deleted";
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + 1);
  }
  return [...byOwner].map(([owner, n]) => `${n} LanceDB rows without a step were steps of ${owner}`);
}

/**
 * Every job as last seen, every second (deleted runs' jobs keep what they counted here); says when a job counts
 * more crashes than kills hit it (a reclaim counts one before the live worker that lost the lease takes it back).
 */
async function pollJobs(
  db: Db,
  state: SoakState,
  stopping: () => boolean,
  say: (line: string) => void,
): Promise<void> {
  while (!stopping()) {
    const before = new Map([...state.jobs].map(([id, j]) => [id, j.crashes]));
    await refreshJobs(db, state).catch(() => undefined);
    for (const job of state.jobs.values()) {
      const was = before.get(job.id) ?? 0;
      const kills = state.killsOf.get(job.id) ?? 0;
      if (job.crashes !== was && (job.crashes > kills || was > kills))
        say(
          `${job.type} job ${job.id} now counts ${job.crashes} crashes (${kills} kill -9s hit it, ${job.lapses} lapses)${job.crashes > kills ? "" : ": the extra one taken back"}`,
        );
    }
    await sleep(1_000);
  }
}

export async function refreshJobs(db: Db, state: SoakState): Promise<void> {
  const jobs = await db.job.findMany({
    select: { id: true, type: true, status: true, crashes: true, lapses: true, waits: true, error: true },
  });
  for (const j of jobs)
    state.jobs.set(j.id, { ...j, maxWaits: Math.max(j.waits, state.jobs.get(j.id)?.maxWaits ?? 0) });
}

async function playEpisodes(
  url: string,
  seed: number,
  client: number,
  state: SoakState,
  faults: FaultWindows,
  stopping: () => boolean,
  say: (line: string) => void,
): Promise<void> {
  const player = new EpisodePlayer(url, seed, client);
  while (!stopping()) {
    try {
      const episode = await player.play();
      state.episodes.push(episode);
      if (state.episodes.length % 25 === 0)
        say(`environment server: ${state.episodes.length} episodes played`);
      // A trainer thinks between episodes; two clients without a pause would take a core from the workers.
      await sleep(EPISODE_GAP_MS);
    } catch (error) {
      state.envErrors.push({
        what: "an environment-server episode",
        message: (error as Error).message,
        duringFault: faults.now(),
      });
      await sleep(500);
    }
  }
}

async function readUi(
  ui: UiReader,
  state: SoakState,
  faults: FaultWindows,
  stopping: () => boolean,
): Promise<void> {
  while (!stopping()) {
    try {
      await ui.readOnce();
    } catch (error) {
      if (!isNotFound(error))
        state.uiErrors.push({
          what: "a UI read",
          message: (error as Error).message,
          duringFault: faults.now(),
        });
    }
    await sleep(400);
  }
}

async function reportProgress(
  db: Db,
  state: SoakState,
  ui: UiReader,
  stopping: () => boolean,
  say: (line: string) => void,
  loading: () => boolean,
): Promise<void> {
  let last = Date.now();
  while (!stopping() && loading()) {
    await sleep(500);
    if (Date.now() - last < 10_000) continue;
    last = Date.now();
    say(`status: ${await jobStatus(db)}; ${state.episodes.length} episodes, ${ui.reads} UI reads`);
  }
}

async function jobStatus(db: Db): Promise<string> {
  const groups = await db.job.groupBy({ by: ["status"], _count: { _all: true } });
  return `jobs ${groups.map((g) => `${g._count._all} ${g.status}`).join(", ") || "none"}`;
}

async function openJobs(db: Db): Promise<string> {
  const jobs = await db.job.findMany({
    where: { status: { in: ["queued", "running"] } },
    select: { id: true, type: true, status: true, progress: true, crashes: true, error: true },
  });
  return (
    jobs
      .map(
        (j) =>
          `${j.type} ${j.id} ${j.status} ${(j.progress * 100).toFixed(0)}% (${j.crashes} crashes${j.error ? `; ${j.error.slice(0, 120)}` : ""})`,
      )
      .join(", ") || "none"
  );
}

async function untilSettled(
  db: Db,
  deadline: number,
  say: (line: string) => void,
  watch: () => void,
): Promise<boolean> {
  let last = 0;
  for (;;) {
    watch();
    const open = await db.job.count({ where: { status: { in: ["queued", "running"] } } });
    if (open === 0) return true;
    if (Date.now() > deadline) return false;
    if (Date.now() - last > 10_000) {
      last = Date.now();
      say(`draining: ${await jobStatus(db)}`);
    }
    await sleep(500);
  }
}

async function untilJob(db: Db, jobId: string, deadline: number): Promise<boolean> {
  for (;;) {
    const job = await db.job.findUnique({ where: { id: jobId }, select: { status: true } });
    if (job?.status === "succeeded") return true;
    if (job?.status === "failed" || job?.status === "cancelled" || Date.now() > deadline) return false;
    await sleep(300);
  }
}

export type { PlanOptions, SoakPlan };
