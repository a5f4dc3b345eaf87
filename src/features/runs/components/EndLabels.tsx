"use client";

import { usePlotArea, useXAxisScale, useYAxisScale } from "recharts";
import { layoutLabels } from "../chart/labelLayout";

/** One label at a line's end: the point it names (in data units) and what it says. */
export interface EndLabel {
  id: string;
  x: number;
  y: number;
  text: string;
  color: string;
  testId: string;
}

export const END_LABEL_HEIGHT = 14;

/** The gutter the labels need right of the plot: their longest text at 11 px, and a leader's room. */
export function endLabelGutter(labels: readonly EndLabel[]): number {
  if (labels.length === 0) return 16;
  return 18 + Math.max(...labels.map((l) => l.text.length)) * 6.4;
}

/**
 * The labels in a column right of the plot, where no line runs, moved apart by layoutLabels so none covers
 * another, each joined to its point by a faint leader. Drawn inside the chart, where its scales are known.
 */
export function EndLabels({ labels }: { labels: readonly EndLabel[] }) {
  const xScale = useXAxisScale();
  const yScale = useYAxisScale();
  const plot = usePlotArea();
  if (!xScale || !yScale || !plot || labels.length === 0) return null;
  const anchored = labels.flatMap((l) => {
    const px = xScale(l.x);
    const py = yScale(l.y);
    // A point outside the zoomed range or off a log axis has no place: its label is left out.
    if (px === undefined || py === undefined || !Number.isFinite(px) || !Number.isFinite(py)) return [];
    if (px < plot.x - 0.5 || px > plot.x + plot.width + 0.5) return [];
    if (py < plot.y - 0.5 || py > plot.y + plot.height + 0.5) return [];
    return [{ ...l, px, py }];
  });
  const placed = layoutLabels(
    anchored.map((l) => ({ id: l.id, y: l.py })),
    { top: plot.y, bottom: plot.y + plot.height, height: END_LABEL_HEIGHT },
  );
  const lx = plot.x + plot.width + 10;
  return (
    <g data-testid="end-labels">
      {anchored.map((l, k) => {
        const y = placed[k]?.y ?? l.py;
        return (
          <g key={l.id} data-testid={l.testId} data-series={l.id} data-y={Math.round(y)}>
            <polyline
              points={`${l.px + 6},${l.py} ${lx - 4},${y}`}
              fill="none"
              stroke={l.color}
              strokeOpacity={0.45}
              strokeWidth={1}
            />
            <text x={lx} y={y} dominantBaseline="central" fontSize={11} fontWeight={600} fill={l.color}>
              {l.text}
            </text>
          </g>
        );
      })}
    </g>
  );
}
