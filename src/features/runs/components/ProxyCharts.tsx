import type { PlotRow } from "../chart/xAxis";
import type { CurveRow } from "../curves";
import type { RunView } from "../runView";
import { CurveChart } from "./CurveChart";

/** An imported-domain run's curves: success in the synthetic environment and the other proxies, named so. */
export function ProxyCharts({
  view,
  place,
  xMax,
}: {
  view: RunView;
  place: (rows: CurveRow[]) => PlotRow[];
  xMax: number | null;
}) {
  return (
    <>
      <CurveChart
        title="Success rate (proxy)"
        subtitle="rollouts · held-out imported tasks, synthetic env: no real environment"
        testId="success-chart"
        rows={place(view.proxyRows)}
        xMax={xMax}
        percent
        reference={view.reference}
        series={[
          { key: "syntheticSuccess", label: "synthetic rollouts", color: "#7a5af8", dash: "5 4" },
          {
            key: "simSuccess",
            label: "held-out imported tasks, synthetic env (proxy)",
            color: "#c11574",
          },
        ]}
      />
      <CurveChart
        title="Other proxies"
        subtitle={`agreement with held-out successful logs · model confidence${view.hasJudge ? " · LLM judge" : ""}`}
        testId="proxy-chart"
        rows={place(view.judgedRows)}
        xMax={xMax}
        percent
        series={[
          { key: "proxyAgreement", label: "action agreement (proxy)", color: "#4f46e5" },
          { key: "proxyConfidence", label: "model confidence (proxy)", color: "#0e9384", dash: "5 4" },
          ...(view.hasJudge
            ? [{ key: "proxyJudge", label: "LLM judge success (proxy)", color: "#b54708", dash: "2 3" }]
            : []),
        ]}
      />
    </>
  );
}
