/** What a job last said of itself: written with each beat. */
export interface Progress {
  fraction?: number;
  message?: string;
}

/** The least time between two beats written at once for a new progress message. */
export const IMMEDIATE_BEAT_MS = 200;

/**
 * When a job's lease is renewed: every `heartbeatMs`, and at once when the job reports a new progress message
 * (at most every IMMEDIATE_BEAT_MS, for jobs that report every episode), and once as soon as the job starts: where a job is must be on record before
 * it can crash there, because a crash point is read from it. Beats never overlap; `beat` must not throw.
 */
export class BeatSchedule {
  private beating: Promise<void> = Promise.resolve();
  private latest: Progress = {};
  private lastImmediate = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly beat: (progress: Progress) => Promise<void>,
    heartbeatMs: number,
  ) {
    this.timer = setInterval(() => this.beatNow(), heartbeatMs);
    // The first beat at once: the time between the claim and the job's start must not eat into the lease.
    this.beatNow();
  }

  progress(progress: Progress): void {
    const changed = progress.message !== undefined && progress.message !== this.latest.message;
    this.latest = progress;
    if (changed && Date.now() - this.lastImmediate >= IMMEDIATE_BEAT_MS) {
      this.lastImmediate = Date.now();
      this.beatNow();
    }
  }

  /** Resolves once no beat can happen any more (a beat in flight finishes first). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
  }

  private beatNow(): void {
    this.beating = this.beating.then(() => this.beat(this.latest));
  }
}
