import { Symbols } from "recharts";
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
  payload?: { x?: number };
}

/**
 * Each point's marker; the final evaluation's is larger (its value is labelled beside the chart, EndLabels). A
 * faint marker belongs to the raw line behind a smoothed one.
 */
export function renderDot(s: Series, faint: boolean, { cx, cy, index, payload }: DotProps) {
  const key = `${s.key}-${index}`;
  if (typeof cx !== "number" || typeof cy !== "number" || !Number.isFinite(cx) || !Number.isFinite(cy))
    return <g key={key} />;
  const shape = s.shape ?? "circle";
  const final = s.finalX !== undefined && s.finalX !== null && payload?.x === s.finalX;
  return (
    <g
      key={key}
      opacity={faint ? 0.35 : 1}
      {...(final ? { "data-testid": "final-point", "data-series": s.key, "data-iteration": s.finalAt } : {})}
    >
      <Marker shape={shape} cx={cx} cy={cy} r={final ? 5.5 : 2.5} color={s.color} width={final ? 2.5 : 1.5} />
    </g>
  );
}
