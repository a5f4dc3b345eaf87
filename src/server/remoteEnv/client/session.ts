/**
 * What each wire protocol implements for the episode engine (episode.ts): open a session on the server, reset it
 * to one of the environment's task numbers, step it, close it. Retries, rebuilds and slots are the engine's, so a
 * protocol file is only the translation of its wire shapes.
 */
import type { RemoteEnvSpec, RemoteObservation, RemoteStepResult } from "@/core/envs/remote/spec";
import type { Split } from "@/core/types";

export interface ResetTarget {
  /** The environment's own task number (OpenEnv's seed, AgentGym's data_idx / session_id / game). */
  number: number;
  split: Split;
}

export interface RemoteSession {
  reset(target: ResetTarget): Promise<RemoteObservation>;
  step(action: string): Promise<RemoteStepResult>;
  /** The task's instruction where the protocol serves it apart from the observation (WebShop's /instruction_text). */
  instruction?(): Promise<string | undefined>;
  /** Ends the session on the server, best effort and bounded in time: never throws. */
  close(): Promise<void>;
}

export interface ProtocolClient {
  /** Creates or connects a session (no reset yet). */
  open(spec: RemoteEnvSpec): Promise<RemoteSession>;
  /** Asks the protocol's health or root route; resolves with what it said, throws a RequestFailure. */
  health(spec: RemoteEnvSpec): Promise<string>;
  /** Where the protocol's first observation conventionally states the task (ALFWorld's "Your task is to: …"). */
  instructionPattern?: RegExp;
  /** True when a session may be reset again for another episode, and is kept between episodes (pool.ts). */
  reusable?: boolean;
}

/** How long closing a session may take: it must not hold an episode's slot for a full request timeout. */
export function closeTimeoutMs(spec: RemoteEnvSpec): number {
  return Math.min(spec.stepTimeoutMs, 5_000);
}
