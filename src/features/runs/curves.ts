import { trainingOfExtra } from "./trainingMetrics";

/**
 * The rows the runs' line charts plot: one per iteration, one column per series. A finished run's final
 * evaluation (run.result.final, the "Real-env success (final)" the run's header and the runs list show) is the
 * last point of its real-env success curve, at the run's last iteration, so the header and the curve agree.
 */
export type CurveRow = { iteration: number } & Record<string, number | null>;

/** Where a run's final evaluation is plotted: its last iteration (0 for a method that does not iterate). */
export function finalIteration(lastIteration: number, metrics: ReadonlyArray<{ iteration: number }>): number {
  return Math.max(0, lastIteration, ...metrics.map((m) => m.iteration));
}

/**
 * The rows with `final` as `key`'s value at iteration `at`: the point an evaluation every few iterations put
 * there (the metrics table keeps it) gives way to the final one, or a row is added. Rows are not changed in place.
 */
export function withFinal(
  rows: readonly CurveRow[],
  key: string,
  final: number | null,
  at: number,
): CurveRow[] {
  const out = rows.map((row) => ({ ...row }));
  if (final === null) return out;
  const row = out.find((r) => r.iteration === at);
  if (row) row[key] = final;
  else out.push({ iteration: at, [key]: final } as CurveRow);
  return out.sort((a, b) => a.iteration - b.iteration);
}

/** One stored iteration as chart columns: success, gap, reward, transitions, proxies and the update's figures. */
export function metricColumns(m: {
  iteration: number;
  syntheticSuccess: number | null;
  realSuccess: number | null;
  simSuccess: number | null;
  meanReward: number | null;
  realTransitions: number;
  syntheticTransitions: number;
  extra: unknown;
}): CurveRow {
  return {
    iteration: m.iteration,
    syntheticSuccess: m.syntheticSuccess,
    realSuccess: m.realSuccess,
    simSuccess: m.simSuccess,
    simGap: simGap(m),
    meanReward: m.meanReward,
    realTransitions: m.realTransitions,
    syntheticTransitions: m.syntheticTransitions,
    ...proxyOfExtra(m.extra),
    ...trainingOfExtra(m.extra),
  };
}

/** Synthetic-environment minus real-env test success at an evaluation point, or null where either is missing. */
export function simGap(m: { simSuccess: number | null; realSuccess: number | null }): number | null {
  return m.simSuccess === null || m.realSuccess === null ? null : m.simSuccess - m.realSuccess;
}

/**
 * An imported-domain run's per-iteration proxies, from its metric's extra (runStore's proxyMetricRow): action
 * agreement, model confidence and the LLM judge's success (when the run has one), as chart columns. Nothing for
 * other runs.
 */
export function proxyOfExtra(extra: unknown): {
  proxyAgreement?: number | null;
  proxyConfidence?: number | null;
  proxyJudge?: number | null;
} {
  const proxy = (extra as { proxy?: unknown } | null)?.proxy;
  if (proxy === null || typeof proxy !== "object") return {};
  const { actionAgreement, confidence, judgeSuccess } = proxy as {
    actionAgreement?: unknown;
    confidence?: unknown;
    judgeSuccess?: unknown;
  };
  return {
    proxyAgreement: typeof actionAgreement === "number" ? actionAgreement : null,
    proxyConfidence: typeof confidence === "number" ? confidence : null,
    proxyJudge: typeof judgeSuccess === "number" ? judgeSuccess : null,
  };
}
