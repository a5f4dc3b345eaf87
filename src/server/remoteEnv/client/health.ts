/**
 * Is a registered environment usable: its protocol's health or root route answers, and train task 0 resets and
 * shows an instruction. Asked once, without the retries an episode gets, so a registration form learns at once
 * what is wrong (the URL, the status, what the server said). Never throws for a server that is not there.
 */
import { EnvironmentDown } from "@/core/envs/remote/faults";
import type { RemoteEnvSpec } from "@/core/envs/remote/spec";
import { slotsFor } from "./limiter";
import { probeTask } from "./probe";
import { PROTOCOL_CLIENTS } from "./protocols";

export interface HealthReport {
  ok: boolean;
  /** The health route's round trip (to its failure when it failed). */
  latencyMs: number;
  message: string;
  sample?: { instruction: string; actions: number };
}

function reason(error: unknown): string {
  if (error instanceof EnvironmentDown) return error.lastError;
  return error instanceof Error ? error.message : String(error);
}

export async function checkHealth(spec: RemoteEnvSpec): Promise<HealthReport> {
  // One attempt per request: a health check reports the first failure rather than retrying through it.
  const once: RemoteEnvSpec = { ...spec, downAfterMs: 0 };
  const started = performance.now();
  let said: string;
  try {
    said = await PROTOCOL_CLIENTS[spec.protocol].health(once);
  } catch (error) {
    return {
      ok: false,
      latencyMs: performance.now() - started,
      message: `health check failed: ${reason(error)}`,
    };
  }
  const latencyMs = performance.now() - started;
  const number = spec.tasks.train.first;
  const release = await slotsFor(spec.name, spec.concurrency).acquireWithin(spec.resetTimeoutMs);
  if (!release)
    return {
      ok: true,
      latencyMs,
      message: `the server answered (${said}); all ${spec.concurrency} episode slots are in use, so train task 0 was not reset`,
    };
  try {
    const probe = await probeTask(once, number, { release });
    const actions = probe.observation.actions?.length ?? 0;
    return {
      ok: true,
      latencyMs,
      message: `the server answered (${said}); train task 0 (number ${number}) reset with ${actions} actions listed`,
      sample: { instruction: probe.instruction, actions },
    };
  } catch (error) {
    return {
      ok: false,
      latencyMs,
      message: `the server answered (${said}) but resetting train task 0 (number ${number}) failed: ${reason(error)}`,
    };
  }
}
