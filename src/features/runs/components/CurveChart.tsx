"use client";

import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Symbols,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { CurveRow } from "../curves";
import { type MarkerShape, pct } from "../format";
import styles from "../runs.module.css";

export type { CurveRow } from "../curves";

export interface Series {
  key: string;
  label: string;
  color: string;
  /** SVG stroke-dasharray; blank or absent: solid. */
  dash?: string;
  /** The marker at each point; a circle unless said. */
  shape?: MarkerShape;
  /** The iteration of the series' point that is the run's final evaluation (marked "final"); null: none. */
  finalAt?: number | null;
}

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

/**
 * A marker of the series' shape, hollow (white inside, the series' colour around), so that where two runs' points
 * coincide both shapes still show. Circles stay <circle> elements.
 */
function Marker({
  shape,
  cx,
  cy,
  r,
  color,
  width = 1.5,
}: {
  shape: MarkerShape;
  cx: number;
  cy: number;
  r: number;
  color: string;
  width?: number;
}) {
  const paint = { fill: "#fff", stroke: color, strokeWidth: width };
  if (shape === "circle") return <circle cx={cx} cy={cy} r={r} {...paint} />;
  // Symbols' size is an area: the same as the circle of radius r, so a square and a circle on one point both show.
  return <Symbols cx={cx} cy={cy} type={shape} size={Math.PI * r * r} {...paint} />;
}

interface DotProps {
  cx?: number | null;
  cy?: number | null;
  index?: number;
  value?: unknown;
  payload?: CurveRow;
}

/**
 * Each point's marker; the final evaluation's is larger and labelled with its value as the run's header says it.
 * `rank` stacks the labels of several runs' finals so that they do not cover each other.
 */
function renderDot(
  s: Series,
  rank: number,
  label: (v: number) => string,
  { cx, cy, index, value, payload }: DotProps,
) {
  const key = `${s.key}-${index}`;
  if (typeof cx !== "number" || typeof cy !== "number" || !Number.isFinite(cx) || !Number.isFinite(cy))
    return <g key={key} />;
  const shape = s.shape ?? "circle";
  const final = s.finalAt !== undefined && s.finalAt !== null && payload?.iteration === s.finalAt;
  if (!final) return <Marker key={key} shape={shape} cx={cx} cy={cy} r={2.5} color={s.color} />;
  const text = typeof value === "number" ? `final ${label(value)}` : "final";
  const above = cy > 24 + rank * 13;
  return (
    <g key={key} data-testid="final-point" data-series={s.key} data-iteration={s.finalAt}>
      <Marker shape={shape} cx={cx} cy={cy} r={5.5} color={s.color} width={2.5} />
      <text
        x={cx - 9}
        y={above ? cy - 9 - rank * 13 : cy + 18 + rank * 13}
        textAnchor="end"
        fontSize={11}
        fontWeight={600}
        fill={s.color}
        data-testid="final-label"
      >
        {text}
      </text>
    </g>
  );
}

/** A series' look in small: its colour, dash pattern and marker, as its line is drawn (legends, tables). */
export function SeriesSwatch({ series }: { series: Series }) {
  return (
    <svg width={40} height={12} aria-hidden="true" className={styles.seriesSwatch}>
      <line
        x1={1}
        x2={39}
        y1={6}
        y2={6}
        stroke={series.color}
        strokeWidth={2}
        strokeDasharray={series.dash || undefined}
      />
      <Marker shape={series.shape ?? "circle"} cx={20} cy={6} r={3.5} color={series.color} />
    </svg>
  );
}

/** The legend: each series' colour, dash pattern and marker, as drawn, and the final evaluation's mark. */
function SeriesLegend({ series }: { series: Series[] }) {
  const withFinal = series.some((s) => s.finalAt !== undefined && s.finalAt !== null);
  return (
    <ul className={styles.legend} data-testid="chart-legend">
      {series.map((s) => (
        <li
          key={s.key}
          data-testid="legend-item"
          data-dash={s.dash || "solid"}
          data-shape={s.shape ?? "circle"}
        >
          <SeriesSwatch series={s} />
          {s.label}
        </li>
      ))}
      {withFinal ? (
        <li data-testid="legend-final">
          <svg width={14} height={12} aria-hidden="true">
            <circle cx={7} cy={6} r={4.5} fill="#fff" stroke="#667085" strokeWidth={2.5} />
          </svg>
          final evaluation
        </li>
      ) : null}
    </ul>
  );
}

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
