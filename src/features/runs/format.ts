import { RunStatus } from "@/shared/enums";

/** Display helpers shared by the runs screens. */
export function pct(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || Number.isNaN(x) ? "—" : `${(x * 100).toFixed(digits)}%`;
}

/**
 * The sim-to-real gap as points of success: synthetic minus real, signed ("+32.0 pts": the policy does that much
 * better in the experience model's world than in the real one). "—" when either side is missing.
 */
export function gapPoints(synthetic: number | null | undefined, real: number | null | undefined): string {
  if (synthetic === null || synthetic === undefined || real === null || real === undefined) return "—";
  const points = (synthetic - real) * 100;
  return `${points >= 0 ? "+" : "−"}${Math.abs(points).toFixed(1)} pts`;
}

export function count(x: number | null | undefined): string {
  return x === null || x === undefined ? "—" : x.toLocaleString("en-US");
}

const TONE: Record<RunStatus, string> = {
  queued: "muted",
  running: "",
  succeeded: "good",
  failed: "bad",
  cancelled: "warn",
};

export function statusTone(status: string): string {
  const known = RunStatus.safeParse(status);
  return known.success ? TONE[known.data] : "muted";
}

/**
 * How far a run is as a bar width, 0–100 %: the run's `progress` (the methods table's runProgress, stored by the
 * worker), clamped, so that no figure the server sends can push the bar past its end.
 */
export function progressPercent(progress: number | null | undefined): number {
  if (progress === null || progress === undefined || !Number.isFinite(progress)) return 0;
  return Math.round(Math.min(1, Math.max(0, progress)) * 100);
}

/**
 * The iterations a run has finished: "3 of 10 iterations" when the config fixes the count, else "13 iterations"
 * (a real budget decides when DreamGym-S2R and the real-env baseline stop, so there is no "of").
 */
export function iterationsText(done: number, planned: number | null | undefined): string {
  if (typeof planned === "number") return `${count(done)} of ${count(planned)} iterations`;
  return `${count(done)} iteration${done === 1 ? "" : "s"}`;
}

/** The real transitions spent of the budget, for methods with a real phase: "640 / 1,000 real transitions". */
export function budgetText(spent: number, budget: number | null | undefined): string | null {
  return typeof budget === "number" ? `${count(spent)} / ${count(budget)} real transitions` : null;
}

/** A line's marker shape (recharts' symbol types). */
export type MarkerShape = "circle" | "square" | "triangle" | "diamond" | "cross" | "star" | "wye";

export interface SeriesStyle {
  color: string;
  /** SVG stroke-dasharray; "" is a solid line. */
  dash: string;
  shape: MarkerShape;
}

/** Distinct colours for up to a dozen series, readable on white. */
export const SERIES_COLORS = [
  "#4f46e5",
  "#0e9384",
  "#dc6803",
  "#c11574",
  "#1570ef",
  "#039855",
  "#7a5af8",
  "#475467",
  "#b54708",
  "#0086c9",
  "#d92d20",
  "#3e4784",
];
const SERIES_DASHES = ["", "8 4", "2 3", "10 3 2 3", "4 4", "14 4 4 4"];
const SERIES_SHAPES: readonly MarkerShape[] = [
  "circle",
  "square",
  "triangle",
  "diamond",
  "cross",
  "star",
  "wye",
];

/**
 * The i-th compared run's look: colour, dash pattern and marker shape all change from one series to the next, so
 * that two runs whose curves coincide (identical early iterations) still show both lines. Six dashes and seven
 * shapes give 42 distinct pairs, more than the 12 runs a comparison takes.
 */
export function seriesStyle(i: number): SeriesStyle {
  return {
    color: SERIES_COLORS[i % SERIES_COLORS.length] as string,
    dash: SERIES_DASHES[i % SERIES_DASHES.length] as string,
    shape: SERIES_SHAPES[i % SERIES_SHAPES.length] as MarkerShape,
  };
}

export function seconds(x: number): string {
  if (x < 60) return `${x.toFixed(1)} s`;
  return `${Math.floor(x / 60)} min ${Math.round(x % 60)} s`;
}
