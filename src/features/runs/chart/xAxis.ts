import type { CurveRow } from "../curves";

/** What the charts' x axis counts, as W&B and TensorBoard offer: steps, samples or wall-clock time. */
export const X_MODES = ["iteration", "transitions", "time"] as const;
export type XMode = (typeof X_MODES)[number];

export const X_LABELS: Record<XMode, string> = {
  iteration: "Iteration",
  transitions: "Transitions (real + synthetic)",
  time: "Wall-clock time",
};

export function xModeOf(raw: string | null | undefined): XMode {
  return (X_MODES as readonly string[]).includes(raw ?? "") ? (raw as XMode) : "iteration";
}

/** One finished iteration's clock: its counters and when it was stored. */
export interface IterationClock {
  iteration: number;
  realTransitions: number;
  syntheticTransitions: number;
  createdAt: Date | string;
}

/** A chart row placed on the x axis; `iteration` stays for tooltips and the final evaluation's mark. */
export type PlotRow = CurveRow & { x: number };

const ms = (d: Date | string) => (d instanceof Date ? d.getTime() : new Date(d).getTime());

/**
 * Where each iteration of one run lies on the x axis. Transitions are cumulative, real plus synthetic (the
 * paper's budget counts both); time is seconds from the run's start: `startedAt`, or its creation when a resume
 * moved `startedAt` past its first stored iteration. Iteration 0 (the untrained policy) is at 0 in every mode;
 * an iteration with no stored clock has no place (null) except on the iteration axis.
 */
export function xOfIteration(
  clock: readonly IterationClock[],
  start: { startedAt: Date | string | null; createdAt: Date | string },
  mode: XMode,
): (iteration: number) => number | null {
  if (mode === "iteration") return (it) => it;
  const byIteration = new Map(clock.map((c) => [c.iteration, c]));
  const first = clock.length > 0 ? Math.min(...clock.map((c) => ms(c.createdAt))) : Number.POSITIVE_INFINITY;
  const startedAt = start.startedAt === null ? null : ms(start.startedAt);
  const t0 = startedAt !== null && startedAt <= first ? startedAt : ms(start.createdAt);
  return (it) => {
    if (it === 0) return 0;
    const c = byIteration.get(it);
    if (!c) return null;
    if (mode === "transitions") return c.realTransitions + c.syntheticTransitions;
    return Math.max(0, (ms(c.createdAt) - t0) / 1000);
  };
}

/** The rows with their x, in x order; rows that have no place on this axis are left out. */
export function placeRows(rows: readonly CurveRow[], xOf: (iteration: number) => number | null): PlotRow[] {
  const placed: PlotRow[] = [];
  for (const row of rows) {
    const x = xOf(row.iteration);
    if (x !== null && Number.isFinite(x)) placed.push({ ...row, x });
  }
  return placed.sort((a, b) => a.x - b.x || a.iteration - b.iteration);
}

/**
 * Several runs' rows on one axis: rows at the same x become one (each run has its own columns), so one chart
 * draws every run even where their x values differ (transitions, time).
 */
export function mergeByX(parts: ReadonlyArray<readonly PlotRow[]>): PlotRow[] {
  const byX = new Map<number, PlotRow>();
  for (const rows of parts)
    for (const row of rows) {
      const into = byX.get(row.x);
      byX.set(
        row.x,
        into ? { ...into, ...row, iteration: Math.min(into.iteration, row.iteration) } : { ...row },
      );
    }
  return [...byX.values()].sort((a, b) => a.x - b.x);
}

const compact = (v: number) =>
  Math.abs(v) >= 1e6
    ? `${(v / 1e6).toFixed(1)}M`
    : Math.abs(v) >= 1000
      ? `${(v / 1000).toFixed(Math.abs(v) >= 10_000 ? 0 : 1)}k`
      : String(Math.round(v));

/** An x tick or tooltip value in the axis's unit: "12", "12.5k", "1m 05s". */
export function formatX(mode: XMode, v: number): string {
  if (mode === "iteration") return String(Math.round(v));
  if (mode === "transitions") return compact(v);
  if (v < 60) return `${Math.round(v)}s`;
  if (v < 3600) return `${Math.floor(v / 60)}m ${String(Math.round(v % 60)).padStart(2, "0")}s`;
  return `${Math.floor(v / 3600)}h ${String(Math.floor((v % 3600) / 60)).padStart(2, "0")}m`;
}
