/**
 * Writes external episodes as they happen: the trajectory when the episode starts (status "live"), each step as it
 * is taken, the outcome when it ends ("done") or is given up ("abandoned": the client went away or idled out).
 * Writes are queued and committed together every few milliseconds, one transaction per batch, in the order they
 * were made: a step never waits for the disk, and a client that vanishes loses at most the batch in flight of a
 * server that dies with it (the steps before it are stored).
 */
import { recoverableFault } from "../queue/faults";
import type { StepRow } from "../trajectories/insertSteps";
import type { EpisodeEnd, EpisodeStart, RecordWriter, Write } from "./recordWrites";

/** Failed attempts of a batch before its writes are tried one by one. */
const ISOLATE_AFTER = 3;

export class EpisodeRecorder {
  private pending: Write[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Runs whose curves need redrawing, with the policy versions that changed; refreshed at most every figuresMs. */
  private readonly stale = new Map<string, Set<number>>();
  private figuresTimer: NodeJS.Timeout | undefined;
  private failures = 0;

  constructor(
    private readonly writer: RecordWriter,
    private readonly flushMs = 15,
    private readonly figuresMs = 500,
    private readonly log: (line: string) => void = (line) => console.error(line),
  ) {}

  start(episode: EpisodeStart): void {
    this.push({ kind: "start", episode });
  }

  step(row: StepRow): void {
    this.push({ kind: "step", row });
  }

  end(trajectoryId: string, runId: string, iteration: number, end: EpisodeEnd): void {
    this.push({ kind: "end", trajectoryId, runId, iteration, end });
  }

  private push(write: Write): void {
    this.pending.push(write);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.flushMs);
  }

  /** Commits everything queued so far (and waits for the batch in flight). */
  flush(): Promise<void> {
    const next = this.writing.then(() => this.commit());
    this.writing = next;
    return next;
  }

  private async commit(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    let unwritten: Write[] = [];
    let failure: unknown;
    try {
      if (this.failures >= ISOLATE_AFTER) ({ unwritten, failure } = await this.writeOneByOne(batch));
      else await this.write(batch);
    } catch (error) {
      unwritten = batch;
      failure = error;
    }
    if (unwritten.length > 0) {
      // What did not commit goes back in front, in order, and is tried again shortly.
      this.pending = [...unwritten, ...this.pending];
      this.failures++;
      this.log(
        `[env-server] recording failed (attempt ${this.failures}), retrying: ${(failure as Error).message}`,
      );
      this.timer ??= setTimeout(
        () => {
          this.timer = undefined;
          void this.flush();
        },
        Math.min(5_000, 100 * 2 ** this.failures),
      );
    } else this.failures = 0;
    const written = new Set(batch.filter((w) => !unwritten.includes(w)));
    for (const w of written) if (w.kind === "end") this.markStale(w.runId, w.iteration);
  }

  /**
   * A batch that keeps failing is written one write at a time, so that one bad write (which no retry mends) costs
   * only itself and what depends on it, logged, instead of holding up every episode behind it. A fault of the
   * machine (a full disk, a locked or unreachable database: queue/faults.ts) is no bad write: the writes from there
   * on are returned unwritten, to wait for it to pass, and nothing is dropped.
   */
  private async writeOneByOne(batch: Write[]): Promise<{ unwritten: Write[]; failure?: unknown }> {
    // The database itself may be down: try the whole batch first.
    try {
      await this.write(batch);
      return { unwritten: [] };
    } catch (error) {
      if (recoverableFault(error)) return { unwritten: batch, failure: error };
    }
    for (const [i, w] of batch.entries()) {
      try {
        await this.write([w]);
      } catch (error) {
        if (recoverableFault(error)) return { unwritten: batch.slice(i), failure: error };
        const what =
          w.kind === "start"
            ? `episode ${w.episode.episodeId}`
            : w.kind === "step"
              ? `a step of ${w.row.trajectoryId}`
              : `the end of ${w.trajectoryId}`;
        this.log(`[env-server] dropped ${what}: ${(error as Error).message}`);
      }
    }
    return { unwritten: [] };
  }

  private write(batch: Write[]): Promise<void> {
    return this.writer.write(batch);
  }

  private markStale(runId: string, iteration: number): void {
    const versions = this.stale.get(runId) ?? new Set<number>();
    versions.add(iteration);
    this.stale.set(runId, versions);
    this.figuresTimer ??= setTimeout(() => {
      this.figuresTimer = undefined;
      void this.refreshFigures();
    }, this.figuresMs);
  }

  /** Redraws the curves and the heatmap rows of the runs whose episodes ended since the last time. */
  async refreshFigures(): Promise<void> {
    const stale = [...this.stale];
    this.stale.clear();
    for (const [runId, versions] of stale) {
      try {
        await this.writer.refreshFigures(runId, [...versions]);
      } catch (error) {
        this.log(`[env-server] run ${runId}: figures not refreshed: ${(error as Error).message}`);
        for (const v of versions) this.markStale(runId, v);
      }
    }
  }

  /** Everything written, and the figures up to date: for shutdown and for tests. */
  async drain(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    await this.flush();
    if (this.figuresTimer) {
      clearTimeout(this.figuresTimer);
      this.figuresTimer = undefined;
    }
    await this.refreshFigures();
  }
}
