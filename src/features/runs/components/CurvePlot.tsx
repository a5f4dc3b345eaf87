"use client";

import { useState } from "react";
import {
  CartesianGrid,
  Line,
  LineChart,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { type ChartData, smoothedKey } from "../chart/chartData";
import { formatX, X_LABELS, type XMode } from "../chart/xAxis";
import { logTicks, type YScale } from "../chart/yScale";
import { dragRange, type XRange } from "../chart/zoom";
import { type DotProps, renderDot } from "./ChartMarkers";
import { type EndLabel, EndLabels, endLabelGutter } from "./EndLabels";
import type { Series } from "./series";

export interface PlotProps {
  data: ChartData & { yDomain: [number, number] };
  series: Series[];
  xMode: XMode;
  xDomain: [number, number];
  scale: YScale;
  smoothing: number;
  signed?: boolean;
  reference?: { y: number; label: string } | null;
  labels: EndLabel[];
  format: (v: number) => string;
  height: number;
  onZoom: (range: XRange) => void;
}

const tick = { fontSize: 11, fill: "#667085" };
const num = (v: unknown) =>
  typeof v === "number" ? v : typeof v === "string" && v !== "" ? Number(v) : null;

/**
 * The lines: each series raw, or raw and faint behind its smoothed line; drag across to zoom (the selection is
 * shaded while dragging); end labels in the gutter right of the plot.
 */
export function CurvePlot(p: PlotProps) {
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null);
  const smoothed = p.smoothing > 0;
  return (
    <ResponsiveContainer width="100%" height={p.height}>
      <LineChart
        data={p.data.rows}
        margin={{ top: 8, right: endLabelGutter(p.labels), bottom: 0, left: -8 }}
        onMouseDown={(e) => {
          const x = num(e.activeLabel);
          if (x !== null) setDrag({ from: x, to: x });
        }}
        onMouseMove={(e) => {
          const x = num(e.activeLabel);
          if (drag && x !== null) setDrag({ ...drag, to: x });
        }}
        onMouseUp={() => {
          const range = drag ? dragRange(drag.from, drag.to) : null;
          setDrag(null);
          if (range) p.onZoom(range);
        }}
        style={{ userSelect: "none" }}
      >
        <CartesianGrid stroke="#eef0f3" vertical={false} />
        <XAxis
          dataKey="x"
          type="number"
          domain={p.xDomain}
          allowDataOverflow
          allowDecimals={p.xMode !== "iteration"}
          tickFormatter={(v: number) => formatX(p.xMode, v)}
          tick={tick}
          tickLine={false}
          axisLine={{ stroke: "#e4e7ec" }}
        />
        <YAxis
          scale={p.scale}
          domain={p.data.yDomain}
          allowDataOverflow
          ticks={p.scale === "log" ? logTicks(p.data.yDomain) : undefined}
          tickFormatter={p.format}
          tick={tick}
          tickLine={false}
          axisLine={false}
          width={56}
        />
        <Tooltip
          formatter={(value, name) => [typeof value === "number" ? p.format(value) : String(value), name]}
          labelFormatter={(x) => `${X_LABELS[p.xMode].toLowerCase()} ${formatX(p.xMode, Number(x))}`}
          contentStyle={{ fontSize: 12, borderRadius: 8, borderColor: "#e4e7ec" }}
        />
        {p.signed ? <ReferenceLine y={0} stroke="#98a2b3" /> : null}
        {p.reference ? <ReferenceLine y={p.reference.y} stroke="#98a2b3" strokeDasharray="4 4" /> : null}
        {p.series.map((s) => (
          <Line
            key={s.key}
            dataKey={s.key}
            name={smoothed ? `${s.label} (raw)` : s.label}
            stroke={s.color}
            strokeOpacity={smoothed ? 0.25 : 1}
            strokeWidth={smoothed ? 1.5 : 2}
            strokeDasharray={s.dash || undefined}
            dot={(props: DotProps) => renderDot(s, smoothed, props)}
            activeDot={smoothed ? false : { r: 4 }}
            tooltipType={smoothed ? "none" : undefined}
            connectNulls
            isAnimationActive={false}
            type="linear"
          />
        ))}
        {smoothed
          ? p.series.map((s) => (
              <Line
                key={smoothedKey(s.key)}
                dataKey={smoothedKey(s.key)}
                name={s.label}
                stroke={s.color}
                strokeWidth={2}
                strokeDasharray={s.dash || undefined}
                dot={false}
                activeDot={{ r: 4 }}
                connectNulls
                isAnimationActive={false}
                type="linear"
                className="smoothed-line"
              />
            ))
          : null}
        {drag && drag.from !== drag.to ? (
          <ReferenceArea x1={drag.from} x2={drag.to} fill="#4f46e5" fillOpacity={0.08} ifOverflow="visible" />
        ) : null}
        <EndLabels labels={p.labels} />
      </LineChart>
    </ResponsiveContainer>
  );
}
