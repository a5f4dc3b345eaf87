import { household } from "../envs/household";
import { offlineMemoryBuffer } from "../experience/testing";
import { parseRunConfig } from "./config";
import { type IterationReport, type RunDeps, runTraining } from "./run";

export { offlineMemoryBuffer };

/**
 * For the engine's determinism tests: a small household DreamGym run at an in-flight limit, with its reports and
 * its result (wall time left out).
 */
export async function concurrencyRun(
  concurrency: number,
  deps: Pick<RunDeps, "model" | "generator" | "rollouts">,
  overrides: Record<string, unknown> = {},
) {
  const config = parseRunConfig({
    method: "dreamgym",
    domain: "household",
    iterations: 2,
    tasksPerBatch: 3,
    groupSize: 4,
    seedTasks: 10,
    evaluation: { interval: 2, episodes: 4 },
    rollouts: { concurrency },
    ...overrides,
  });
  const reports: IterationReport[] = [];
  const result = await runTraining(config, {
    domain: household,
    buffer: await offlineMemoryBuffer(household, 10),
    ...deps,
    onIteration: (r) => void reports.push(r),
  });
  const { seconds: _seconds, ...rest } = result;
  return { result: rest, reports };
}

/** Two runs' reports as comparable data: everything but wall-clock latency. */
export function withoutLatency(reports: IterationReport[]): unknown {
  return JSON.parse(JSON.stringify(reports, (key, value) => (key === "latencyMs" ? undefined : value)));
}
