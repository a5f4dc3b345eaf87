import type { RealDomainName } from "@/core/envs/names";
import type { OfflineMemory, OfflineMemoryData } from "@/core/experience/retrieval/offlineMemory";
import type { ExperienceSettings } from "@/core/experience/types";
import type { LinearPolicy } from "@/core/policy/linearPolicy";
import type { LinearValue } from "@/core/policy/value";
import type { CollectedEpisode } from "@/core/rl/collect";
import type { RolloutPool } from "@/core/train/rolloutPool";
import type { Task, Transition } from "@/core/types";
import { RequestThreads } from "../threads/requestThreads";
import { threadEntry } from "../threads/threadEntry";

/** What a rollout thread is started with: enough to rebuild the run's synthetic environment exactly. */
export interface RolloutThreadData {
  domain: RealDomainName;
  settings: ExperienceSettings;
  /** The replay buffer's rows, in the order the run's buffer took them (retrieval depends on it). */
  transitions: Transition[];
  memory: OfflineMemoryData;
  /** The run's seed tasks (train tasks 0..n-1): where its blind variations start (core/train/startState.ts). */
  seedTasks: number;
}

/** The acting policy's settings besides its weights (LinearPolicyOptions without the candidate source). */
export interface PolicySettings {
  seed: number;
  temperature: number;
  dimension: number;
  fallbackAction: string;
  greedy: boolean;
}

/** Before an iteration, to every thread: the weights its episodes act with. */
export interface WeightsMessage {
  type: "weights";
  policy: PolicySettings;
  weights: Float32Array;
  value?: Float32Array;
}

/** One episode to play. */
export interface EpisodeRequest {
  task: Task;
  maxSteps: number;
  key: string;
}

/**
 * Rollout threads: whole synthetic episodes on the other cores, while the main thread plays its share, learns and
 * answers the queue. Each thread rebuilds the run's synthetic environment from the same data (replay buffer rows in
 * the same order, the same learnt memory, the embedded model and embedder, which are deterministic) and acts with
 * the weights synced before each iteration, so an episode is the same whichever thread plays it.
 *
 * Only the embedded backends with offline-only retrieval qualify: the buffer a thread holds never changes, as the
 * run's offline partition never does. Anything else plays on the main thread (runDeps.ts decides).
 */
export class ThreadRolloutPool implements RolloutPool {
  readonly capacity: number;
  /** Episodes the threads have played so far. */
  played = 0;
  private readonly threads: RequestThreads<EpisodeRequest, CollectedEpisode>;

  constructor(
    data: RolloutThreadData,
    count: number,
    /** Episodes each thread plays at once (they interleave while one waits on another). */
    private readonly perThread: number,
  ) {
    this.threads = new RequestThreads(
      threadEntry(
        new URL("./rolloutThread.ts", import.meta.url),
        new URL("./rolloutThread.boot.mjs", import.meta.url),
      ),
      data,
      count,
      "rollout thread",
    );
    this.capacity = count * perThread;
  }

  hasRoom(): boolean {
    return this.threads.hasRoom(this.perThread);
  }

  sync(policy: LinearPolicy, value?: LinearValue): void {
    const message: WeightsMessage = {
      type: "weights",
      policy: {
        seed: policy.seed,
        temperature: policy.temperature,
        dimension: policy.dimension,
        fallbackAction: policy.fallbackAction,
        greedy: policy.greedy,
      },
      weights: policy.weights,
      ...(value ? { value: value.weights } : {}),
    };
    this.threads.broadcast(message);
  }

  async run(task: Task, maxSteps: number, key: string): Promise<CollectedEpisode> {
    const collected = await this.threads.request({ task, maxSteps, key });
    this.played++;
    return collected;
  }

  close(): Promise<void> {
    return this.threads.close();
  }
}

/** The thread data of a run's synthetic environment, from what runDeps built it with. */
export function rolloutThreadData(
  domain: RealDomainName,
  settings: ExperienceSettings,
  transitions: Transition[],
  memory: OfflineMemory,
  seedTasks: number,
): RolloutThreadData {
  return { domain, settings, transitions, memory: memory.toData(), seedTasks };
}
