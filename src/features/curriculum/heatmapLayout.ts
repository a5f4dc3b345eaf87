/**
 * Geometry and colour of the reward-variance heatmap, apart from React and the canvas so they can be tested:
 * the component draws with these and hit-tests the pointer with the same numbers.
 */
export interface Layout {
  rows: number;
  cols: number;
  /** Left gutter for task instructions; 0 when rows are too thin to label. */
  gutter: number;
  /** Top band for iteration numbers. */
  header: number;
  cellW: number;
  cellH: number;
  width: number;
  height: number;
}

const HEADER = 20;
const LABELLED_ROW = 12;

export function layoutHeatmap(rows: number, cols: number, availableWidth: number): Layout {
  const cellH = clamp(Math.floor(560 / Math.max(1, rows)), 3, 20);
  const gutter = cellH >= LABELLED_ROW ? Math.min(300, Math.floor(availableWidth * 0.3)) : 0;
  const cellW = clamp(Math.floor((availableWidth - gutter) / Math.max(1, cols)), 2, 64);
  return {
    rows,
    cols,
    gutter,
    header: HEADER,
    cellW,
    cellH,
    width: gutter + cellW * cols,
    height: HEADER + cellH * rows,
  };
}

/** The cell under a point in CSS pixels of the canvas, or null outside the grid. */
export function cellAt(layout: Layout, x: number, y: number): { row: number; col: number } | null {
  const gx = x - layout.gutter;
  const gy = y - layout.header;
  if (gx < 0 || gy < 0) return null;
  const col = Math.floor(gx / layout.cellW);
  const row = Math.floor(gy / layout.cellH);
  if (col >= layout.cols || row >= layout.rows) return null;
  return { row, col };
}

/** Iteration labels every this many columns, so that they never overlap. */
export function labelEvery(cellW: number): number {
  for (const step of [1, 2, 5, 10, 20, 25, 50, 100, 200, 500]) if (step * cellW >= 26) return step;
  return 1000;
}

/** Light (no variance: every rollout of the group agreed) to deep indigo (the curriculum's favourites). */
export const STOPS: ReadonlyArray<readonly [number, readonly [number, number, number]]> = [
  [0, [224, 231, 255]],
  [0.25, [165, 180, 252]],
  [0.5, [99, 102, 241]],
  [0.75, [67, 56, 202]],
  [1, [30, 27, 75]],
];

/** Not in that iteration's batch. */
export const MISSING = "#f2f4f7";

export function colourAt(t: number): string {
  const x = clamp(t, 0, 1);
  for (let i = 1; i < STOPS.length; i++) {
    const [t1, c1] = STOPS[i] as (typeof STOPS)[number];
    const [t0, c0] = STOPS[i - 1] as (typeof STOPS)[number];
    if (x <= t1) {
      const f = (x - t0) / (t1 - t0);
      const c = c0.map((v, k) => Math.round(v + ((c1[k] as number) - v) * f));
      return `rgb(${c[0]},${c[1]},${c[2]})`;
    }
  }
  return "rgb(30,27,75)";
}

/** 256 precomputed colours: 50,000 cells look up a string instead of interpolating. */
export const PALETTE: readonly string[] = Array.from({ length: 256 }, (_, i) => colourAt(i / 255));

export function paletteIndex(variance: number, max: number): number {
  return clamp(Math.round((variance / max) * 255), 0, 255);
}

/** Outcome rewards in [0, 1] have variance at most 0.25: a fixed scale keeps colours comparable across runs. */
export function scaleMax(observedMax: number): number {
  return Math.max(0.25, observedMax);
}

export const CSS_GRADIENT = `linear-gradient(to right, ${STOPS.map(([t, c]) => `rgb(${c.join(",")}) ${t * 100}%`).join(", ")})`;

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}
