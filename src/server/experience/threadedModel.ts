import { availableParallelism } from "node:os";
import type { OfflineMemory, OfflineMemoryData } from "@/core/experience/retrieval/offlineMemory";
import {
  RETRIEVAL_EXPERIENCE_MODEL,
  RetrievalExperienceModel,
} from "@/core/experience/retrieval/retrievalModel";
import type {
  ExperienceInput,
  ExperienceModel,
  ExperiencePrediction,
  ExperienceSettings,
} from "@/core/experience/types";
import type { Transition } from "@/core/types";
import { RequestThreads } from "../threads/requestThreads";
import { threadEntry } from "../threads/threadEntry";

/** Threads by default: the cores beside the one that runs rollouts, policy and retrieval. */
export function defaultThreads(): number {
  return Math.max(0, availableParallelism() - 1);
}

/**
 * The embedded experience model on worker threads: a run's rollouts, policy and retrieval stay on the main thread
 * while predictions (analogy alignment, the CPU-heavy part) run beside them, so both cores work and the main
 * thread stays free for the lease heartbeat. Each prediction goes to the thread with the fewest in hand. The model
 * is deterministic and its threads keep only memos, so results are the same as inline, whatever the threads.
 */
export class ThreadedExperienceModel implements ExperienceModel {
  readonly name = RETRIEVAL_EXPERIENCE_MODEL;
  private readonly threads: RequestThreads<{ input: ExperienceInput }, ExperiencePrediction>;

  constructor(settings: Pick<ExperienceSettings, "reasoning">, count: number, memory?: OfflineMemory) {
    // Every thread learns the same memory, so any thread gives the same answer.
    const data: PredictThreadData = { reasoning: settings.reasoning, memory: memory?.toData() };
    this.threads = new RequestThreads(
      threadEntry(
        new URL("./predictThread.ts", import.meta.url),
        new URL("./predictThread.boot.mjs", import.meta.url),
      ),
      data,
      count,
      "experience model thread",
    );
  }

  predict(input: ExperienceInput): Promise<ExperiencePrediction> {
    return this.threads.request({ input });
  }

  /** Every thread learns the same transitions, in order with the predictions, so they keep giving one answer. */
  learn(transitions: readonly Transition[]): void {
    const message: LearnMessage = { type: "learn", transitions };
    this.threads.broadcast(message);
  }

  close(): Promise<void> {
    return this.threads.close();
  }
}

/** To every prediction thread: real transitions its memory learns (ExperienceModel.learn). */
export interface LearnMessage {
  type: "learn";
  transitions: readonly Transition[];
}

/** The embedded experience model, on `threads` threads beside the main one (inline when 0). */
export function embeddedExperienceModel(
  settings: Pick<ExperienceSettings, "reasoning">,
  threads = defaultThreads(),
  memory?: OfflineMemory,
): ExperienceModel {
  return threads > 0
    ? new ThreadedExperienceModel(settings, threads, memory)
    : new RetrievalExperienceModel(settings, memory);
}

/** What a prediction thread is started with. */
export interface PredictThreadData {
  reasoning: boolean;
  memory: OfflineMemoryData | undefined;
}
