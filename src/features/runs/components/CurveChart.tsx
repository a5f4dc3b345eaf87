"use client";

import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { CurveRow } from "../curves";
import { pct } from "../format";
import styles from "../runs.module.css";
import { type DotProps, renderDot } from "./ChartMarkers";
import { SeriesLegend } from "./SeriesLegend";
import type { Series } from "./series";

export type { CurveRow } from "../curves";

interface Props {
  title: string;
  subtitle?: string;
  data: CurveRow[];
  series: Series[];
  percent?: boolean;
  /** Values may be negative (a difference such as the sim-to-real gap): the axis spans −100%…100%, zero marked. */
  signed?: boolean;
  /** The x axis reaches the planned last iteration, so a live run's curve grows into it. */
  xMax?: number | null;
  reference?: { y: number; label: string } | null;
  testId: string;
  height?: number;
}

const fmtPct = (v: number) => `${Math.round(v * 100)}%`;
const fmtNum = (v: number) =>
  Math.abs(v) >= 1000 ? `${(v / 1000).toFixed(v >= 10_000 ? 0 : 1)}k` : String(Math.round(v * 1000) / 1000);

/** A per-iteration line chart; sparse series (real-env evaluation every few iterations) are joined across gaps. */
export function CurveChart({
  title,
  subtitle,
  data,
  series,
  percent,
  signed,
  xMax,
  reference,
  testId,
  height = 230,
}: Props) {
  const points = data.filter((row) =>
    series.some((s) => row[s.key] !== null && row[s.key] !== undefined),
  ).length;
  const fmt = percent ? fmtPct : fmtNum;
  // The final point's label reads as the run's header does (one decimal for a rate).
  const finalLabel = percent ? (v: number) => pct(v) : fmtNum;
  const lastIteration = data.at(-1)?.iteration ?? 0;
  const isFinal = (key: unknown, iteration: unknown) =>
    series.some((s) => s.key === key && s.finalAt !== undefined && s.finalAt === iteration);
  const finalRanks = new Map(
    series.filter((s) => s.finalAt !== undefined && s.finalAt !== null).map((s, rank) => [s.key, rank]),
  );
  const legend = series.length > 1 || series.some((s) => s.finalAt !== undefined && s.finalAt !== null);
  return (
    <section className={`panel ${styles.chart}`} data-testid={testId} data-points={points}>
      <h2>
        {title}
        {subtitle ? <small>{subtitle}</small> : null}
      </h2>
      {points === 0 ? (
        <div className={styles.chartEmpty} style={{ height }}>
          No iterations recorded yet
        </div>
      ) : (
        <ResponsiveContainer width="100%" height={height}>
          <LineChart data={data} margin={{ top: 6, right: 16, bottom: 0, left: -8 }}>
            <CartesianGrid stroke="#eef0f3" vertical={false} />
            <XAxis
              dataKey="iteration"
              type="number"
              domain={[0, Math.max(xMax ?? 0, lastIteration, 1)]}
              allowDecimals={false}
              tick={{ fontSize: 11, fill: "#667085" }}
              tickLine={false}
              axisLine={{ stroke: "#e4e7ec" }}
            />
            <YAxis
              domain={signed ? (percent ? [-1, 1] : ["auto", "auto"]) : percent ? [0, 1] : [0, "auto"]}
              tickFormatter={fmt}
              tick={{ fontSize: 11, fill: "#667085" }}
              tickLine={false}
              axisLine={false}
              width={52}
            />
            <Tooltip
              formatter={(value, name, item) => [
                typeof value === "number" ? finalLabel(value) : String(value),
                isFinal(item.dataKey, (item.payload as CurveRow | undefined)?.iteration)
                  ? `${String(name)} (final)`
                  : name,
              ]}
              labelFormatter={(it) => `iteration ${it}`}
              contentStyle={{ fontSize: 12, borderRadius: 8, borderColor: "#e4e7ec" }}
            />
            {legend ? <Legend content={() => <SeriesLegend series={series} />} /> : null}
            {signed ? <ReferenceLine y={0} stroke="#98a2b3" /> : null}
            {reference ? (
              <ReferenceLine
                y={reference.y}
                stroke="#98a2b3"
                strokeDasharray="4 4"
                label={{ value: reference.label, position: "insideTopRight", fontSize: 11, fill: "#667085" }}
              />
            ) : null}
            {series.map((s) => (
              <Line
                key={s.key}
                dataKey={s.key}
                name={s.label}
                stroke={s.color}
                strokeWidth={2}
                strokeDasharray={s.dash || undefined}
                dot={(props: DotProps) => renderDot(s, finalRanks.get(s.key) ?? 0, finalLabel, props)}
                activeDot={{ r: 4 }}
                connectNulls
                isAnimationActive={false}
                type="linear"
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      )}
    </section>
  );
}
