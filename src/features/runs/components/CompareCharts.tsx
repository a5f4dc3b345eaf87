"use client";

import { useChartSettings } from "../chart/ChartSettings";
import { comparedRows } from "../chart/compareRows";
import { xOfIteration } from "../chart/xAxis";
import { metricColumns } from "../curves";
import styles from "../runs.module.css";
import { TRAINING_COLUMNS, type TrainingColumn } from "../trainingMetrics";
import type { ComparedRunData } from "../types";
import { CurveChart } from "./CurveChart";
import type { Series } from "./series";

const TRAINING: ReadonlyArray<{ column: TrainingColumn; title: string; percent?: boolean }> = [
  { column: "policyLoss", title: "Policy loss" },
  { column: "approxKl", title: "KL (old → new policy)" },
  { column: "entropy", title: "Entropy" },
  { column: "clipFraction", title: "Clip fraction", percent: true },
];

/** The runs' curves on shared axes: success, the sim-to-real gap, reward and the update's figures. */
export function CompareCharts({ runs, series }: { runs: readonly ComparedRunData[]; series: Series[] }) {
  const { xMode } = useChartSettings();
  const compared = runs.map((r) => ({ ...r, rows: r.metrics.map(metricColumns) }));
  const xOfs = runs.map((r) => xOfIteration(r.metrics, r, xMode));
  const of = (column: string) => comparedRows(compared, column, xOfs);
  const real = of("realSuccess");
  const realSeries = series.map((s, i) => ({
    ...s,
    finalAt: real.finals[i] ?? null,
    finalX: real.finalXs[i] ?? null,
  }));
  const has = (column: string) => compared.some((r) => r.rows.some((row) => typeof row[column] === "number"));
  return (
    <div className={styles.charts}>
      <CurveChart
        title="Real-env test success"
        subtitle="held-out real tasks; last point: final"
        testId="compare-real"
        rows={real.rows}
        series={realSeries}
        percent
        height={280}
      />
      <CurveChart
        title="Synthetic success"
        subtitle="rollouts in the experience model"
        testId="compare-synthetic"
        rows={of("syntheticSuccess").rows}
        series={series}
        percent
        height={280}
      />
      {has("simGap") ? (
        <CurveChart
          title="Sim-to-real gap"
          subtitle="test success, synthetic minus real env"
          testId="compare-gap"
          rows={of("simGap").rows}
          series={series}
          percent
          signed
          height={280}
        />
      ) : null}
      <CurveChart
        title="Mean reward"
        subtitle="of each iteration's rollouts"
        testId="compare-reward"
        rows={of("meanReward").rows}
        series={series}
        height={280}
      />
      {TRAINING.filter((t) => has(t.column)).map((t) => (
        <CurveChart
          key={t.column}
          title={t.title}
          subtitle={TRAINING_COLUMNS[t.column].label}
          testId={`compare-${t.column}`}
          rows={of(t.column).rows}
          series={series}
          percent={t.percent}
          height={280}
        />
      ))}
    </div>
  );
}
