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

/** Synthetic-environment minus real-env test success at an evaluation point, or null where either is missing. */
export function simGap(m: { simSuccess: number | null; realSuccess: number | null }): number | null {
  return m.simSuccess === null || m.realSuccess === null ? null : m.simSuccess - m.realSuccess;
}

export type ComparedMetric = "realSuccess" | "syntheticSuccess" | "meanReward" | "simGap";

export interface ComparedRun {
  iteration: number;
  finalRealSuccess: number | null;
  metrics: ReadonlyArray<Partial<Record<ComparedMetric, number | null>> & { iteration: number }>;
}

/**
 * One row per iteration, one column per run (r0, r1, …): the shape a multi-line chart wants. On the real-env
 * success chart each finished run's final evaluation ends its line; `finals[i]` says at which iteration (null: none).
 */
export function byIteration(
  runs: readonly ComparedRun[],
  metric: ComparedMetric,
): { rows: CurveRow[]; finals: Array<number | null> } {
  let rows: CurveRow[] = [];
  const byIt = new Map<number, CurveRow>();
  runs.forEach((run, i) => {
    for (const m of run.metrics) {
      const row = byIt.get(m.iteration) ?? ({ iteration: m.iteration } as CurveRow);
      row[`r${i}`] = m[metric] ?? null;
      byIt.set(m.iteration, row);
    }
  });
  rows = [...byIt.values()].sort((a, b) => a.iteration - b.iteration);
  const finals = runs.map((run) =>
    metric === "realSuccess" && run.finalRealSuccess !== null
      ? finalIteration(run.iteration, run.metrics)
      : null,
  );
  runs.forEach((run, i) => {
    const at = finals[i];
    if (at !== null && at !== undefined) rows = withFinal(rows, `r${i}`, run.finalRealSuccess, at);
  });
  return { rows, finals };
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
