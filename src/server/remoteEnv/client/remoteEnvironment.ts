/**
 * A registered remote environment as DreamGym's `Environment`: rollouts, training, evaluation and offline
 * collection play it as they play the built-in ones (ARCHITECTURE.md "Contracts"). Each instance plays one episode
 * at a time and holds one of the environment's slots from its reset until the episode is done, closed, or lost to
 * an error, so that no path leaves a slot taken.
 */
import type { RemoteEnvSpec, RemoteObservation } from "@/core/envs/remote/spec";
import type { Environment, Observation, StepResult, Task } from "@/core/types";
import { RemoteEpisode } from "./episode";
import { type Release, type Slots, slotsFor } from "./limiter";
import { PROTOCOL_CLIENTS } from "./protocols";

export interface RemoteEnvironmentOptions {
  /** Told of every retry and rebuild, one line each. */
  log?: (line: string) => void;
}

export function toObservation(o: RemoteObservation): Observation {
  return { text: o.text, ...(o.actions ? { actions: o.actions } : {}) };
}

export class RemoteEnvironment implements Environment {
  readonly domain: string;
  private readonly slots: Slots;
  private readonly episode: RemoteEpisode;
  private release: Release | undefined;

  constructor(
    readonly spec: RemoteEnvSpec,
    private readonly numberOf: (task: Task) => number,
    options: RemoteEnvironmentOptions = {},
  ) {
    this.domain = spec.name;
    this.slots = slotsFor(spec.name, spec.concurrency);
    this.episode = new RemoteEpisode(spec, PROTOCOL_CLIENTS[spec.protocol], options);
  }

  /** Times the current episode was rebuilt by replay after a fault. */
  get rebuilds(): number {
    return this.episode.rebuilds;
  }

  async reset(task: Task): Promise<Observation> {
    const number = this.numberOf(task);
    // A reset during an episode ends it and plays the new one in the same slot.
    await this.episode.close();
    this.release ??= await this.slots.acquire();
    try {
      return toObservation(await this.episode.start({ number, split: task.split }));
    } catch (error) {
      await this.end();
      throw error;
    }
  }

  async step(action: string): Promise<StepResult> {
    if (!this.release)
      throw new Error(
        `remote environment "${this.spec.name}": no episode is open (reset first; it may have ended)`,
      );
    try {
      const r = await this.episode.step(action);
      if (r.done) await this.end();
      return {
        observation: toObservation(r.observation),
        reward: r.reward,
        done: r.done,
        success: r.success ?? (r.done && r.reward >= this.spec.successReward),
        valid: r.valid ?? true,
      };
    } catch (error) {
      await this.end();
      throw error;
    }
  }

  /** Ends the episode, done or not: its session is closed on the server and its slot freed. Safe to call twice. */
  close(): Promise<void> {
    return this.end();
  }

  private async end(): Promise<void> {
    const release = this.release;
    this.release = undefined;
    try {
      await this.episode.close();
    } finally {
      release?.();
    }
  }
}
