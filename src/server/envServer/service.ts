/**
 * What every protocol of the environment server does, whatever its wire shape: start an episode of a run (by task
 * id, seed, group, or the run's curriculum), step it, report its state, end it. The OpenEnv and AgentGym routes
 * only translate.
 */
import { randomUUID } from "node:crypto";
import { isImportedDomain, type TrainingDomain } from "@/core/envs/trainingDomain";
import { Prisma } from "@/generated/prisma/client";
import { sqlDate } from "../bulkInsert";
import type { Db } from "../db";
import { CurriculumFeed } from "./curriculumFeed";
import { EnvFactory, noRealEnvironment } from "./envFactory";
import { Episode } from "./episode";
import { EnvServerError, validationError } from "./errors";
import { defaultExternalRun, defaultMode, type ExternalRun, loadExternalRun } from "./externalRuns";
import { logFailure } from "./logFailure";
import { type EpisodeState, ResetData, type StepReply } from "./protocol";
import { EpisodeRecorder } from "./recorder";
import { inlineWriter, type RecordWriter } from "./recordWrites";
import { ServerLease } from "./serverLease";
import { type Session, type SessionKind, type SessionLimits, Sessions } from "./sessions";
import { readStepInput } from "./stepInput";
import { heldOutUnlessEvaluation, taskById, taskBySeed } from "./tasks";
import { threadWriter } from "./writerThread";

export interface ServiceOptions extends SessionLimits {
  /** Threads of the embedded experience model (the worker's setting when absent). */
  threads?: number;
  flushMs?: number;
  figuresMs?: number;
  /** The database's URL: the recorder then writes on a thread of its own; inline through `db` without it. */
  databaseUrl?: string;
}

/** What a protocol route fixes for its resets: AgentGym's WebShop route plays the shop, whatever the body says. */
export interface ResetDefaults {
  domain?: string;
  mode?: "real" | "synthetic";
  runId?: string;
}

export class EnvService {
  readonly recorder: EpisodeRecorder;
  private readonly writer: RecordWriter;
  readonly sessions: Sessions;
  private readonly factory: EnvFactory;
  private readonly runs = new Map<string, Promise<ExternalRun>>();
  private readonly feeds = new Map<string, CurriculumFeed>();
  /** The final state of HTTP episodes that ended, for /state and a clear answer to a late step; bounded. */
  private readonly ended = new Map<string, EpisodeState>();
  /**
   * Told of every WebSocket step: the time from the message's arrival to its reply's send, and the environment's
   * own part of it (the bench's measure of what the server adds).
   */
  stepTimer: ((totalMs: number, envMs: number) => void) | undefined;
  /** Episodes whose last records may still be on their way to the recorder. */
  private readonly unsettled = new Set<Episode>();
  /** Ids of the episodes being played or being started, on any transport. */
  private readonly claimed = new Set<string>();
  private staleSweeper: NodeJS.Timeout | undefined;
  private readonly lease: ServerLease;
  private indexer: NodeJS.Timeout | undefined;
  private indexing: Promise<unknown> = Promise.resolve();

  constructor(
    readonly db: Db,
    options: ServiceOptions,
  ) {
    this.writer = options.databaseUrl ? threadWriter(options.databaseUrl) : inlineWriter(db);
    this.recorder = new EpisodeRecorder(this.writer, options.flushMs, options.figuresMs);
    this.factory = new EnvFactory(db, options.threads);
    this.lease = new ServerLease(db);
    this.sessions = new Sessions(options, (session) => {
      const episode = session.episode;
      if (episode) this.finish(episode, "abandoned");
    });
  }

  /**
   * Episodes left `live` by a server that died with them (or lost its client without noticing): any live episode
   * of any server with nothing stored for twice the idle timeout, except this server's own, is abandoned, with the
   * steps it has. Run every idle timeout, so several servers may share one database.
   */
  async abandonStale(): Promise<number> {
    const cutoff = sqlDate(new Date(Date.now() - 2 * this.sessions.limits.idleMs));
    return this.abandonLive(Prisma.sql`
      AND COALESCE((SELECT MAX(s."createdAt") FROM "Step" s WHERE s."trajectoryId" = "Trajectory"."id"),
                   "Trajectory"."createdAt") < ${cutoff}`);
  }

  /**
   * At start, before serving: with no other environment server alive on this database (serverLease.ts), every
   * live episode was left by a dead one, this server's earlier self after a kill -9 among them, and is abandoned
   * now; beside live servers, only the stale ones are.
   */
  async abandonLeftLive(): Promise<number> {
    await this.lease.start();
    if (await this.lease.othersAlive()) return this.abandonStale();
    return this.abandonLive(Prisma.empty);
  }

  private abandonLive(condition: Prisma.Sql): Promise<number> {
    const own = [...this.unsettled].filter((e) => !e.done).map((e) => e.trajectoryId);
    const notOwn = own.length > 0 ? Prisma.sql`AND "id" NOT IN (${Prisma.join(own)})` : Prisma.empty;
    return this.db.$executeRaw`
      UPDATE "Trajectory" SET "status" = 'abandoned',
         "length" = (SELECT COUNT(*) FROM "Step" s WHERE s."trajectoryId" = "Trajectory"."id"),
         "totalReward" = COALESCE((SELECT SUM(s."reward") FROM "Step" s WHERE s."trajectoryId" = "Trajectory"."id"), 0)
       WHERE "status" = 'live' ${notOwn} ${condition}`;
  }

  /** Abandons what dead servers left live now, and stale episodes every idle timeout from now on. */
  async watchStale(): Promise<void> {
    await this.abandonLeftLive();
    this.staleSweeper = setInterval(
      () => void this.abandonStale().catch((error) => logFailure("abandoning stale episodes", error)),
      Math.max(1_000, this.sessions.limits.idleMs),
    );
    this.staleSweeper.unref();
  }

  /**
   * Puts the recorded steps into LanceDB (the UI's neighbours and search), as the worker does after its jobs: now
   * and every `everyMs`, off the steps' path. Indexing takes the replay buffer's write lock, so it never races the
   * worker.
   */
  startIndexing(everyMs: number): void {
    this.indexer = setInterval(
      () => void this.index().catch((error) => logFailure("indexing recorded steps", error)),
      everyMs,
    );
    this.indexer.unref();
  }

  /** Indexes every step not yet in LanceDB (one pass at a time); returns how many went in. */
  index(): Promise<number> {
    const next = this.indexing.then(async () => {
      const { indexPending } = await import("../replay/syncSteps");
      return (await indexPending(this.db)).indexed;
    });
    this.indexing = next.catch(() => undefined);
    return next;
  }

  open(kind: SessionKind, client: string, tag?: Record<string, unknown>): Session {
    return this.sessions.add(kind, client, tag);
  }

  close(session: Session): void {
    this.sessions.close(session);
  }

  reset(session: Session, input: unknown, defaults: ResetDefaults = {}): Promise<StepReply> {
    return this.busy(session, () => this.startEpisode(session, input, defaults));
  }

  step(session: Session, input: unknown): Promise<StepReply> {
    return this.busy(session, () => this.stepEpisode(session, input));
  }

  /** A request on the session: it counts as activity from its start to its end. */
  private async busy<T>(session: Session, work: () => Promise<T>): Promise<T> {
    session.inFlight++;
    session.touch();
    try {
      return await work();
    } finally {
      session.inFlight--;
      session.touch();
    }
  }

  private async startEpisode(session: Session, input: unknown, defaults: ResetDefaults): Promise<StepReply> {
    const parsed = ResetData.safeParse(input ?? {});
    if (!parsed.success) throw validationError(parsed.error, "bad reset");
    const data = parsed.data;
    // A domain that does not exist, or a real episode of one that exists only as logs, is refused before the
    // default run for it is made.
    const named = defaults.domain ?? data.domain;
    if (named !== undefined && data.run_id === undefined && defaults.runId === undefined) {
      const domain = await this.factory.domain(named);
      if ((defaults.mode ?? data.mode) === "real" && isImportedDomain(domain))
        throw new EnvServerError("VALIDATION_ERROR", noRealEnvironment(domain.name));
    }
    const run = await this.run(
      data.run_id ?? defaults.runId,
      data.domain ?? defaults.domain,
      data.mode ?? defaults.mode,
    );
    const domainName = defaults.domain ?? data.domain ?? run.config.domain;
    if (domainName !== run.config.domain)
      throw new EnvServerError(
        "VALIDATION_ERROR",
        `run ${run.id} plays the ${run.config.domain} domain, not ${domainName}`,
      );
    const mode = defaults.mode ?? data.mode ?? defaultMode(run.config);
    const episodeId = data.episode_id ?? randomUUID();
    const stored =
      data.episode_id !== undefined &&
      (await this.db.trajectory.count({ where: { episodeId: data.episode_id } })) > 0;
    // Claimed before the next await: two resets naming one new id cannot both have it.
    if (stored || this.claimed.has(episodeId) || this.ended.has(episodeId))
      throw new EnvServerError(
        "VALIDATION_ERROR",
        `episode_id ${episodeId} is already in use: pick a new one`,
      );
    this.claimed.add(episodeId);
    let episode: Episode;
    let reply: StepReply;
    try {
      const built = await this.factory.create(domainName, mode, run.config);
      const { task, member } = await this.pickTask(run, built.domain, data);
      const version = data.policy_version ?? (await this.currentVersion(run.id));
      episode = new Episode({
        episodeId,
        runId: run.id,
        task: heldOutUnlessEvaluation(task, data.evaluation === true),
        mode,
        version,
        group: data.group !== undefined ? member : null,
        evaluation: data.evaluation === true,
        recorder: this.recorder,
        ...built,
      });
      reply = await episode.start();
    } catch (error) {
      this.claimed.delete(episodeId);
      throw error;
    }
    // A new reset ends the episode the session was playing.
    if (session.episode) this.finish(session.episode, "abandoned");
    session.episode = episode;
    this.unsettled.add(episode);
    if (session.closed) this.finish(episode, "abandoned");
    else if (session.kind === "http") this.sessions.bindEpisode(session, episodeId);
    session.touch();
    return { ...reply, metadata: this.metadata(episode) };
  }

  /** The task a reset names (by id, by split and index, by seed), else the curriculum's next one. */
  private async pickTask(run: ExternalRun, domain: TrainingDomain, data: ResetData) {
    if (data.task_id !== undefined)
      return { task: await taskById(this.db, domain, data.task_id), member: null };
    if (data.split !== undefined && data.index !== undefined)
      return { task: domain.task(data.split, data.index), member: null };
    if (data.seed !== undefined) return { task: taskBySeed(domain, data.seed), member: null };
    return this.feed(run, domain).next(data.group);
  }

  private async stepEpisode(session: Session, input: unknown): Promise<StepReply> {
    const episode = session.episode;
    if (!episode) throw new EnvServerError("NOT_RESET", "no episode in this session: reset first");
    const reply = await episode.step(readStepInput(input));
    session.touch();
    if (episode.done) this.finish(episode, "done");
    if (episode.done && session.kind === "http") {
      this.remember(episode);
      this.sessions.close(session, "ended");
    }
    return { ...reply, metadata: this.metadata(episode) };
  }

  state(session: Session | undefined, episodeId?: string): EpisodeState {
    session?.touch();
    const episode = session?.episode;
    if (episode) return episode.state();
    const ended = episodeId !== undefined ? this.ended.get(episodeId) : undefined;
    if (ended) return ended;
    return {
      episode_id: null,
      step_count: 0,
      run_id: null,
      trajectory_id: null,
      task_id: null,
      domain: null,
      mode: null,
      policy_version: null,
      done: false,
      total_reward: 0,
    };
  }

  /**
   * The ended HTTP episode's state, or the session holding the live one. Without an id, the client's most recent
   * HTTP episode (undefined when it started none).
   */
  httpSession(episodeId: string | undefined, client: string): Session | { ended: EpisodeState } | undefined {
    const id = episodeId ?? this.sessions.latestEpisode(client);
    if (id === undefined) return undefined;
    const ended = this.ended.get(id);
    if (ended) return { ended };
    return this.sessions.byEpisodeId(id);
  }

  /** Ends an HTTP episode and frees its slot; a live one is recorded as abandoned. */
  closeHttp(episodeId: string | undefined, client: string): { episode_id: string; status: string } {
    const found = this.httpSession(episodeId, client);
    if (!found)
      throw new EnvServerError("UNKNOWN_EPISODE", "no episode_id given, and you have no HTTP episode here");
    if ("ended" in found) return { episode_id: found.ended.episode_id ?? "", status: "done" };
    const id = found.episode?.id ?? "";
    const done = found.episode?.done === true;
    this.sessions.close(found, done ? "ended" : "was closed by its client and abandoned");
    return { episode_id: id, status: done ? "done" : "abandoned" };
  }

  private finish(episode: Episode, how: "done" | "abandoned"): void {
    episode.finish(how);
    this.claimed.delete(episode.id);
    void episode.settled().then(() => this.unsettled.delete(episode));
  }

  private remember(episode: Episode): void {
    this.ended.set(episode.id, episode.state());
    if (this.ended.size > 100_000) this.ended.delete(this.ended.keys().next().value as string);
  }

  private metadata(episode: Episode) {
    const s = episode.state();
    return { episode_id: s.episode_id, trajectory_id: s.trajectory_id, run_id: s.run_id, task_id: s.task_id };
  }

  private run(runId: string | undefined, domain?: string, mode?: "real" | "synthetic") {
    const key = runId ?? `default:${domain ?? "shop"}:${mode ?? "synthetic"}`;
    let run = this.runs.get(key);
    if (!run) {
      run = runId
        ? loadExternalRun(this.db, runId)
        : defaultExternalRun(this.db, domain ?? "shop", mode ?? "synthetic");
      this.runs.set(key, run);
      run.catch(() => this.runs.delete(key));
    }
    return run;
  }

  private feed(run: ExternalRun, domain: TrainingDomain): CurriculumFeed {
    let feed = this.feeds.get(run.id);
    if (!feed) {
      feed = new CurriculumFeed(this.db, run.id, run.config, domain);
      this.feeds.set(run.id, feed);
    }
    return feed;
  }

  /** The latest policy version the trainer reported to the run (0 before any). */
  private async currentVersion(runId: string): Promise<number> {
    const run = await this.db.run.findUnique({ where: { id: runId }, select: { iteration: true } });
    return run?.iteration ?? 0;
  }

  /** Every open episode abandoned and recorded, the models stopped. */
  async shutdown(): Promise<void> {
    this.sessions.stop();
    if (this.staleSweeper) clearInterval(this.staleSweeper);
    if (this.indexer) clearInterval(this.indexer);
    for (const session of this.sessions.all()) {
      this.sessions.close(session, "was closed: the server stopped");
      session.onExpire?.("the server stopped");
    }
    await this.settle();
    await this.indexing;
    await this.factory.close();
    await this.writer.close();
    // Last: until its episodes are stored as abandoned, a server starting beside this one must see it alive.
    await this.lease.stop();
  }

  /** Waits until every episode's steps and outcome are stored and the curves redrawn. */
  async settle(): Promise<void> {
    const episodes = [...this.unsettled];
    await Promise.all(episodes.map((e) => e.settled()));
    for (const e of episodes) if (e.done) this.unsettled.delete(e);
    await this.recorder.drain();
  }

  /** Builds the synthetic environments' buffers before the first reset waits for them. */
  async warm(domains: readonly string[]): Promise<void> {
    // A domain that cannot be warmed is built (and its error reported to the client) at its first reset.
    for (const d of domains)
      await this.factory.warm(d).catch((error) => logFailure(`warming domain ${d}`, error));
  }
}
