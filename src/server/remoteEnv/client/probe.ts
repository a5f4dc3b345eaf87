/**
 * What one of the environment's tasks asks: open an episode on it, read its instruction the way its protocol
 * states it, close. Used to list a registered environment's tasks and by the health check.
 */
import type { RemoteEnvSpec, RemoteObservation } from "@/core/envs/remote/spec";
import type { Observation, Split } from "@/core/types";
import { RemoteEpisode } from "./episode";
import { type Release, slotsFor } from "./limiter";
import { PROTOCOL_CLIENTS } from "./protocols";
import { toObservation } from "./remoteEnvironment";

export interface ProbedTask {
  instruction: string;
  observation: Observation;
}

/** The split whose range holds the environment's task number: train where the ranges overlap or neither does. */
export function splitOfNumber(spec: RemoteEnvSpec, number: number): Split {
  const within = (r: { first: number; count: number }) => number >= r.first && number < r.first + r.count;
  return !within(spec.tasks.train) && within(spec.tasks.test) ? "test" : "train";
}

/**
 * The instruction: the protocol's own field (OpenEnv's `instruction`, WebShop's /instruction_text), else the
 * registration's pattern on the first observation (its first group, or the whole match), else the protocol's
 * convention (ALFWorld's "Your task is to: …"), else the first observation's text.
 */
export function instructionOf(
  spec: RemoteEnvSpec,
  first: RemoteObservation,
  served: string | undefined,
  protocolPattern?: RegExp,
): string {
  const own = served ?? first.instruction;
  if (own?.trim()) return own.trim();
  for (const pattern of [
    spec.instructionPattern ? new RegExp(spec.instructionPattern) : undefined,
    protocolPattern,
  ]) {
    const m = pattern?.exec(first.text);
    if (m) return (m[1] ?? m[0]).trim();
  }
  return first.text.trim();
}

export async function probeTask(
  spec: RemoteEnvSpec,
  number: number,
  options: { log?: (line: string) => void; release?: Release; split?: Split } = {},
): Promise<ProbedTask> {
  const release = options.release ?? (await slotsFor(spec.name, spec.concurrency).acquire());
  const client = PROTOCOL_CLIENTS[spec.protocol];
  const episode = new RemoteEpisode(spec, client, options.log ? { log: options.log } : {});
  try {
    const first = await episode.start({ number, split: options.split ?? splitOfNumber(spec, number) });
    const served = await episode.instruction();
    return {
      instruction: instructionOf(spec, first, served, client.instructionPattern),
      observation: toObservation(first),
    };
  } finally {
    await episode.close();
    release();
  }
}
