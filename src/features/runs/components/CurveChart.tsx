"use client";

import { useState } from "react";
import { useChartSettings } from "../chart/ChartSettings";
import { chartData } from "../chart/chartData";
import type { PlotRow } from "../chart/xAxis";
import type { YScale } from "../chart/yScale";
import { pct } from "../format";
import styles from "../runs.module.css";
import { CurvePlot } from "./CurvePlot";
import type { EndLabel } from "./EndLabels";
import { SeriesLegend } from "./SeriesLegend";
import type { Series } from "./series";

interface Props {
  title: string;
  subtitle?: string;
  /** The rows already placed on the page's x axis (placeRows). */
  rows: PlotRow[];
  series: Series[];
  percent?: boolean;
  /** Values may be negative (a difference such as the sim-to-real gap): the axis spans −100%…100%, zero marked. */
  signed?: boolean;
  /** The x axis reaches this far (the planned last iteration), so a live run's curve grows into it. */
  xMax?: number | null;
  reference?: { y: number; label: string } | null;
  testId: string;
  height?: number;
}

const fmtPct = (v: number) => `${Math.round(v * 100)}%`;
export const fmtNum = (v: number) => {
  const abs = Math.abs(v);
  if (abs >= 1000) return `${(v / 1000).toFixed(abs >= 10_000 ? 0 : 1)}k`;
  if (abs !== 0 && abs < 0.001) return v.toExponential(0);
  return String(Math.round(v * 1000) / 1000);
};

/** One chart panel: title, its log-scale switch, the lines on the page's x axis, and the legend. */
export function CurveChart({
  title,
  subtitle,
  rows,
  series,
  percent,
  signed,
  xMax,
  reference,
  testId,
  height = 230,
}: Props) {
  const { xMode, smoothing, zoom, setZoom } = useChartSettings();
  const [scale, setScale] = useState<YScale>("linear");
  const data = chartData(rows, series, { smoothing, scale, range: zoom, percent, signed });
  const lastX = rows.at(-1)?.x ?? 0;
  // Time starts where the first iteration was stored: the wait before it (queue, setup) is no curve.
  const firstX = xMode === "time" ? Math.floor(rows[0]?.x ?? 0) : 0;
  const xDomain: [number, number] = zoom
    ? [zoom[0], zoom[1]]
    : [firstX, Math.max(xMax ?? 0, lastX, firstX + 1)];
  // A final evaluation reads as the run's header says it (one decimal for a rate).
  const finalText = (v: number) => `final ${percent ? pct(v) : fmtNum(v)}`;
  const labels: EndLabel[] = series.flatMap((s) => {
    const at = s.finalX;
    const value = rows.find((r) => r.x === at)?.[s.key];
    if (at === undefined || at === null || typeof value !== "number") return [];
    return [{ id: s.key, x: at, y: value, text: finalText(value), color: s.color, testId: "final-label" }];
  });
  if (reference)
    labels.push({
      id: "reference",
      x: xDomain[1],
      y: reference.y,
      text: `${reference.label} ${percent ? pct(reference.y) : fmtNum(reference.y)}`,
      color: "#667085",
      testId: "reference-label",
    });
  const legend = series.length > 1 || series.some((s) => s.finalAt !== undefined && s.finalAt !== null);
  return (
    <section
      className={`panel ${styles.chart}`}
      data-testid={testId}
      data-points={data.points}
      data-scale={scale}
      data-smoothed={smoothing > 0 ? "true" : "false"}
      data-zoom={zoom ? `${zoom[0]}-${zoom[1]}` : undefined}
    >
      <div className={styles.chartHead}>
        <h2>
          {title}
          {subtitle ? <small>{subtitle}</small> : null}
        </h2>
        <button
          type="button"
          className={styles.scaleToggle}
          aria-pressed={scale === "log"}
          aria-label={`Log scale: ${title}`}
          title="logarithmic y axis (values at or below zero are left out)"
          onClick={() => setScale(scale === "log" ? "linear" : "log")}
        >
          log
        </button>
      </div>
      {data.points === 0 || data.yDomain === null ? (
        <div className={styles.chartEmpty} style={{ height }}>
          {data.points === 0
            ? "No iterations recorded yet"
            : scale === "log"
              ? "Nothing above zero to draw on a log scale"
              : "Nothing in the zoomed range"}
        </div>
      ) : (
        <CurvePlot
          data={{ ...data, yDomain: data.yDomain }}
          series={series}
          xMode={xMode}
          xDomain={xDomain}
          scale={scale}
          smoothing={smoothing}
          signed={signed}
          reference={reference}
          labels={labels}
          format={percent ? fmtPct : fmtNum}
          height={height}
          onZoom={setZoom}
        />
      )}
      {legend ? <SeriesLegend series={series} /> : null}
    </section>
  );
}
