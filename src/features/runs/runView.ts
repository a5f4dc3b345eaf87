import type { DomainKind } from "@/features/domains/types";
import { type CurveRow, finalIteration, metricColumns, simGap, withFinal } from "./curves";

/** One finished iteration's metrics, as the run page's curves and its metrics table read them. */
export interface MetricRow {
  iteration: number;
  syntheticSuccess: number | null;
  realSuccess: number | null;
  simSuccess: number | null;
  meanReward: number | null;
  realTransitions: number;
  syntheticTransitions: number;
  extra: unknown;
  /** When the iteration was stored: the time axis's clock. */
  createdAt: Date;
}

interface ProxyFigures {
  syntheticSuccess: number;
  confidence: number | null;
  actionAgreement: number | null;
  judgeSuccess: number | null;
}

/** What of a run its page reads to decide its figures and draw its curves. */
export interface RunSource {
  kind: string;
  domain: string;
  /** The domain's kind (the domains list); null when it is not listed, as a removed remote domain is not. */
  domainKind: DomainKind | null;
  iteration: number;
  finalRealSuccess: number | null;
  finalSimSuccess: number | null;
  untrainedRealSuccess: number | null;
  proxy: { untrained?: { syntheticSuccess: number } | null; final?: ProxyFigures | null } | null;
  metrics: ReadonlyArray<MetricRow>;
}

export interface RunView {
  /** Played by a trainer through the environment server. */
  external: boolean;
  /**
   * A domain with logs and no environment: every test figure is a proxy, and is named one. A remote domain has a
   * real environment, as a built-in one does.
   */
  imported: boolean;
  /** The run evaluated in the synthetic environment too, so its sim-to-real gap is shown. */
  measuresGap: boolean;
  /** Where the final evaluation is plotted, when the run has one. */
  finalAt: number | null;
  /** The untrained policy's success (or proxy), drawn across the success chart. */
  reference: { y: number; label: string } | null;
  untrainedProxy: number | null;
  /** Per iteration: the metrics as chart columns. */
  rows: CurveRow[];
  /** The rows ending with the final evaluation's real and synthetic-env success. */
  successRows: CurveRow[];
  gapRows: CurveRow[];
  /** An imported-domain run's rows ending with its final proxies; `judged` adds the LLM judge's. */
  proxyRows: CurveRow[];
  judgedRows: CurveRow[];
  hasJudge: boolean;
}

/** A run's kind and curves, as its page shows them. */
export function runView(r: RunSource): RunView {
  const rows: CurveRow[] = r.metrics.map(metricColumns);
  // The final evaluation ends the real-env curve, so the curve's last point is the header's "final" figure.
  const finalAt = r.finalRealSuccess !== null ? finalIteration(r.iteration, r.metrics) : null;
  const successRows = withFinal(
    withFinal(rows, "realSuccess", r.finalRealSuccess, finalAt ?? 0),
    "simSuccess",
    r.finalSimSuccess,
    finalAt ?? 0,
  );
  const gapRows = successRows.map((row) => ({
    ...row,
    simGap: simGap({ simSuccess: row.simSuccess ?? null, realSuccess: row.realSuccess ?? null }),
  }));
  const external = r.kind === "external";
  // A domain that is no longer listed is told by the run's figures: only an imported one's are proxies.
  const imported = !external && (r.domainKind === "imported" || (r.domainKind === null && r.proxy !== null));
  const measuresGap =
    !imported && (r.finalSimSuccess !== null || r.metrics.some((m) => m.simSuccess !== null));
  const untrainedProxy = r.proxy?.untrained?.syntheticSuccess ?? null;
  const untrained = imported ? untrainedProxy : r.untrainedRealSuccess;
  const last = finalIteration(r.iteration, r.metrics);
  const final = r.proxy?.final;
  const proxyRows = withFinal(
    withFinal(
      withFinal(rows, "simSuccess", final?.syntheticSuccess ?? null, last),
      "proxyAgreement",
      final?.actionAgreement ?? null,
      last,
    ),
    "proxyConfidence",
    final?.confidence ?? null,
    last,
  );
  const judgedRows = withFinal(proxyRows, "proxyJudge", final?.judgeSuccess ?? null, last);
  return {
    external,
    imported,
    measuresGap,
    finalAt,
    reference: untrained !== null ? { y: untrained, label: "untrained" } : null,
    untrainedProxy,
    rows,
    successRows,
    gapRows,
    proxyRows,
    judgedRows,
    hasJudge: judgedRows.some((row) => typeof row.proxyJudge === "number"),
  };
}
