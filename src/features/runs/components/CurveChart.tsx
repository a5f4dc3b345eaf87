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
import styles from "../runs.module.css";

export interface Series {
  key: string;
  label: string;
  color: string;
  dashed?: boolean;
}

export type CurveRow = { iteration: number } & Record<string, number | null>;

interface Props {
  title: string;
  subtitle?: string;
  data: CurveRow[];
  series: Series[];
  percent?: boolean;
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
  xMax,
  reference,
  testId,
  height = 230,
}: Props) {
  const points = data.filter((row) =>
    series.some((s) => row[s.key] !== null && row[s.key] !== undefined),
  ).length;
  const fmt = percent ? fmtPct : fmtNum;
  const lastIteration = data.at(-1)?.iteration ?? 0;
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
              domain={percent ? [0, 1] : [0, "auto"]}
              tickFormatter={fmt}
              tick={{ fontSize: 11, fill: "#667085" }}
              tickLine={false}
              axisLine={false}
              width={52}
            />
            <Tooltip
              formatter={(value) => (typeof value === "number" ? fmt(value) : String(value))}
              labelFormatter={(it) => `iteration ${it}`}
              contentStyle={{ fontSize: 12, borderRadius: 8, borderColor: "#e4e7ec" }}
            />
            {series.length > 1 ? <Legend iconType="plainline" wrapperStyle={{ fontSize: 12 }} /> : null}
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
                strokeDasharray={s.dashed ? "5 4" : undefined}
                dot={{ r: 2.5, strokeWidth: 0, fill: s.color }}
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
