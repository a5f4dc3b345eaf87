"use client";

import { ChartSettingsProvider, useChartSettings } from "../chart/ChartSettings";
import { placeRows, xOfIteration } from "../chart/xAxis";
import { evaluatedOn } from "../configForm";
import { fileSlug } from "../csv";
import styles from "../runs.module.css";
import type { RunView } from "../runView";
import type { RunData } from "../types";
import { ChartControls } from "./ChartControls";
import { CsvDownload } from "./CsvDownload";
import { CurveChart } from "./CurveChart";
import { ProxyCharts } from "./ProxyCharts";
import { SuccessCharts } from "./SuccessCharts";
import { TrainingCharts } from "./TrainingCharts";

type Props = { run: RunData; view: RunView };

/** The run's curves with their shared controls (x axis, smoothing, zoom) and the metrics' CSV download. */
export function RunCharts(props: Props) {
  return (
    <ChartSettingsProvider>
      <div className={styles.chartBar}>
        <ChartControls />
        <CsvDownload runs={[props.run]} fileName={`dreamgym-${fileSlug(props.run.name)}-metrics.csv`} />
      </div>
      <Charts {...props} />
    </ChartSettingsProvider>
  );
}

/** Drawn toward the planned last iteration on the iteration axis, so that a live run's curves grow into it. */
function Charts({ run: r, view }: Props) {
  const { xMode } = useChartSettings();
  const xOf = xOfIteration(r.metrics, r, xMode);
  const place = (rows: RunView["rows"]) => placeRows(rows, xOf);
  const finalX = view.finalAt === null ? null : xOf(view.finalAt);
  const xMax = xMode === "iteration" ? r.plannedIterations : null;
  const rows = place(view.rows);
  return (
    <div className={styles.charts}>
      {view.imported ? (
        <ProxyCharts view={view} place={place} xMax={xMax} />
      ) : (
        <SuccessCharts
          view={view}
          place={place}
          finalX={finalX}
          heldOut={evaluatedOn(r.config)}
          xMax={xMax}
        />
      )}
      <CurveChart
        title="Mean reward"
        subtitle="of the iteration's rollouts"
        testId="reward-chart"
        rows={rows}
        xMax={xMax}
        series={[{ key: "meanReward", label: "mean reward", color: "#0e9384" }]}
      />
      <CurveChart
        title="Transitions used"
        subtitle="cumulative"
        testId="transitions-chart"
        rows={rows}
        xMax={xMax}
        series={[
          { key: "realTransitions", label: "real", color: "#dc6803" },
          { key: "syntheticTransitions", label: "synthetic", color: "#98a2b3", dash: "5 4" },
        ]}
      />
      <TrainingCharts rows={rows} xMax={xMax} />
    </div>
  );
}
