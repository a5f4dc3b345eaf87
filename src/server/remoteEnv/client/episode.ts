/**
 * One episode of a remote environment, kept alive through the environment's faults. A step is not idempotent, so
 * a failed one is never simply sent again: the episode is rebuilt (a fresh session, reset to the same task number,
 * the episode's actions replayed) and then the step is taken. Real environments are deterministic, so a replay
 * that sees a different observation means the episode cannot be continued faithfully: `EpisodeBroken`.
 */
import { EpisodeBroken } from "@/core/envs/remote/faults";
import type { RemoteEnvSpec, RemoteObservation, RemoteStepResult } from "@/core/envs/remote/spec";
import { retrying } from "./backoff";
import { excerpt, RequestFailure } from "./failure";
import { keepIdle, takeIdle } from "./pool";
import type { ProtocolClient, RemoteSession, ResetTarget } from "./session";

/** Unreadable replies in a row after which the episode is given up as broken (the server answers, but uselessly). */
export const MALFORMED_IN_A_ROW = 3;

export interface EpisodeOptions {
  log?: (line: string) => void;
}

export class RemoteEpisode {
  private session: RemoteSession | undefined;
  private target: ResetTarget | undefined;
  /** The actions taken so far and the observation texts they led to (texts[0]: the reset's). */
  private actions: string[] = [];
  private texts: string[] = [];
  private malformed = 0;
  /** False from a request's start until it succeeds: only a session whose last request went well is kept. */
  private healthy = false;
  /** Times the current episode was rebuilt by replay. */
  rebuilds = 0;

  constructor(
    private readonly spec: RemoteEnvSpec,
    private readonly client: ProtocolClient,
    private readonly options: EpisodeOptions = {},
  ) {}

  async start(target: ResetTarget): Promise<RemoteObservation> {
    this.target = target;
    this.actions = [];
    this.texts = [];
    this.malformed = 0;
    this.rebuilds = 0;
    const first = await this.retry(`reset to task ${target.number}`, () => this.resetFresh(target));
    this.malformed = 0;
    this.texts.push(first.text);
    return first;
  }

  async step(action: string): Promise<RemoteStepResult> {
    if (!this.target) throw new Error(`remote environment "${this.spec.name}": step before reset`);
    const result = await this.retry(`step ${this.actions.length + 1}`, async () =>
      (this.session ?? (await this.rebuild())).step(action),
    );
    this.malformed = 0;
    this.actions.push(action);
    this.texts.push(result.observation.text);
    return result;
  }

  /** The instruction where the protocol serves it apart (undefined where it does not). */
  instruction(): Promise<string | undefined> {
    return this.retry("reading the instruction", async () =>
      (this.session ?? (await this.rebuild())).instruction?.(),
    );
  }

  /** Ends the session (kept for the next episode where the protocol allows); the episode can be started again. */
  async close(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (!session) return;
    if (this.healthy && this.client.reusable) await keepIdle(this.spec.name, this.spec.concurrency, session);
    else await session.close().catch(() => undefined);
  }

  /** Drops the session without keeping it: after a failure its state is unknown. */
  private async discard(): Promise<void> {
    this.healthy = false;
    await this.close();
  }

  private retry<T>(what: string, attempt: () => Promise<T>): Promise<T> {
    const tracked = async () => {
      this.healthy = false;
      const result = await attempt();
      this.healthy = true;
      return result;
    };
    return retrying(this.spec, tracked, {
      what,
      ...(this.options.log ? { log: this.options.log } : {}),
      onFailure: (failure) => this.failed(failure),
    });
  }

  /** A failed request leaves the session in an unknown state: it is dropped, and the next attempt rebuilds. */
  private async failed(failure: RequestFailure): Promise<void> {
    await this.discard();
    if (failure.kind !== "malformed") return;
    this.malformed++;
    if (this.malformed >= MALFORMED_IN_A_ROW)
      throw new EpisodeBroken(
        this.spec.name,
        `${this.malformed} unusable replies in a row, the last: ${failure.message}`,
      );
  }

  /**
   * A session reset to the task: a kept one where there is one (it may have been reaped by the server meanwhile,
   * which costs a new one, not a retry), else a new one.
   */
  private async resetFresh(target: ResetTarget): Promise<RemoteObservation> {
    await this.close();
    const idle = this.client.reusable ? takeIdle(this.spec.name) : undefined;
    if (idle) {
      this.session = idle;
      try {
        return await idle.reset(target);
      } catch (error) {
        if (!(error instanceof RequestFailure) || !error.retryable) throw error;
        await this.discard();
      }
    }
    this.session = await this.client.open(this.spec);
    return this.session.reset(target);
  }

  /** A fresh session brought to where the episode was: reset to its task, its actions replayed and checked. */
  private async rebuild(): Promise<RemoteSession> {
    const target = this.target as ResetTarget;
    this.same(0, (await this.resetFresh(target)).text);
    const session = this.session as RemoteSession;
    for (const [i, action] of this.actions.entries())
      this.same(i + 1, (await session.step(action)).observation.text);
    this.rebuilds++;
    this.options.log?.(
      `remote environment "${this.spec.name}": episode on task ${target.number} rebuilt by replaying ${this.actions.length} actions`,
    );
    return session;
  }

  private same(index: number, text: string): void {
    const recorded = this.texts[index] as string;
    if (text === recorded) return;
    const where = index === 0 ? "the reset" : `step ${index} (${excerpt(this.actions[index - 1] as string)})`;
    throw new EpisodeBroken(
      this.spec.name,
      `replaying task ${this.target?.number} went elsewhere at ${where}: recorded "${excerpt(recorded)}", now "${excerpt(text)}"`,
    );
  }
}
