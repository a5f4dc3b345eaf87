import { Symbols } from "recharts";
import type { CurveRow } from "../curves";
import type { MarkerShape } from "../format";
import type { Series } from "./series";

/**
 * A marker of the series' shape, hollow (white inside, the series' colour around), so that where two runs' points
 * coincide both shapes still show. Circles stay <circle> elements.
 */
export function Marker({
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

export interface DotProps {
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
export function renderDot(
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
