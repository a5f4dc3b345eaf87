import { toCsv } from "./csv";
import { simGap } from "./curves";
import { extraColumns, flattenExtra } from "./extra";

/** What a run's metrics CSV reads of the run. */
export interface CsvRun {
  id: string;
  name: string;
  startedAt: Date | string | null;
  createdAt: Date | string;
  metrics: ReadonlyArray<{
    iteration: number;
    syntheticSuccess: number | null;
    realSuccess: number | null;
    simSuccess: number | null;
    meanReward: number | null;
    realTransitions: number;
    syntheticTransitions: number;
    createdAt: Date | string;
    extra: unknown;
  }>;
}

export const CSV_COLUMNS = [
  "run_id",
  "run_name",
  "iteration",
  "wall_clock_s",
  "real_transitions",
  "synthetic_transitions",
  "synthetic_success",
  "real_success",
  "sim_success",
  "sim_to_real_gap",
  "mean_reward",
] as const;

const time = (d: Date | string) => new Date(d).getTime();

/**
 * The runs' per-iteration metrics as one CSV, one line per run and iteration: the fixed columns, then every
 * figure the updates recorded (flattened extra, e.g. update.approxKl), blank where a run has none. Wall-clock
 * seconds count from the run's start, as the charts' time axis does.
 */
export function metricsCsv(runs: readonly CsvRun[]): string {
  const extras = runs.map((r) => r.metrics.map((m) => flattenExtra(m.extra)));
  const extra = extraColumns(extras.flat());
  const rows = runs.flatMap((run, i) => {
    const first = Math.min(...run.metrics.map((m) => time(m.createdAt)));
    const started = run.startedAt === null ? null : time(run.startedAt);
    const t0 = started !== null && started <= first ? started : time(run.createdAt);
    return run.metrics.map((m, k) => ({
      run_id: run.id,
      run_name: run.name,
      iteration: m.iteration,
      wall_clock_s: Math.max(0, (time(m.createdAt) - t0) / 1000).toFixed(1),
      real_transitions: m.realTransitions,
      synthetic_transitions: m.syntheticTransitions,
      synthetic_success: m.syntheticSuccess,
      real_success: m.realSuccess,
      sim_success: m.simSuccess,
      sim_to_real_gap: simGap(m),
      mean_reward: m.meanReward,
      ...extras[i]?.[k],
    }));
  });
  return toCsv([...CSV_COLUMNS, ...extra], rows);
}
