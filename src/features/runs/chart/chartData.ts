import type { Series } from "../components/series";
import { smooth } from "./smoothing";
import type { PlotRow } from "./xAxis";
import { onScale, type YScale, yDomain } from "./yScale";
import { inRange, type XRange } from "./zoom";

/** The column of a series' smoothed line beside its raw one. */
export const smoothedKey = (key: string) => `${key}__smoothed`;

export interface ChartData {
  rows: PlotRow[];
  yDomain: [number, number] | null;
  /** Rows with at least one value of a series (before zoom): 0 shows the empty state. */
  points: number;
}

/**
 * What one chart draws: the rows in the zoomed range, each series' values as the y scale can show them (a log
 * axis drops zero and below), its smoothed column when smoothing is on, and the y range of what is on screen.
 * Smoothing runs over the whole series before the zoom, so zooming never changes a smoothed value.
 */
export function chartData(
  rows: readonly PlotRow[],
  series: readonly Series[],
  opts: { smoothing: number; scale: YScale; range: XRange; percent?: boolean; signed?: boolean },
): ChartData {
  const points = rows.filter((row) =>
    series.some((s) => typeof row[s.key] === "number" && Number.isFinite(row[s.key] as number)),
  ).length;
  const scaled: PlotRow[] = rows.map((row) => {
    const out: PlotRow = { ...row };
    for (const s of series) out[s.key] = onScale(row[s.key], opts.scale);
    return out;
  });
  if (opts.smoothing > 0)
    for (const s of series) {
      // Only the rows that have the series are smoothed: a sparse evaluation curve is not averaged with gaps.
      const at = scaled.flatMap((row, i) => (row[s.key] === null ? [] : [i]));
      const values = smooth(
        at.map((i) => scaled[i]?.[s.key] ?? null),
        opts.smoothing,
      );
      for (const row of scaled) row[smoothedKey(s.key)] = null;
      at.forEach((i, k) => {
        const row = scaled[i];
        if (row) row[smoothedKey(s.key)] = values[k] ?? null;
      });
    }
  const visible = inRange(scaled, opts.range);
  const values = visible.flatMap((row) =>
    series.flatMap((s) => [row[s.key] ?? null, row[smoothedKey(s.key)] ?? null]),
  );
  return {
    rows: visible,
    yDomain: yDomain(values, { percent: opts.percent, signed: opts.signed, scale: opts.scale }),
    points,
  };
}
