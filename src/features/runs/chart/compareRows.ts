import { type CurveRow, finalIteration, withFinal } from "../curves";
import { mergeByX, type PlotRow, placeRows } from "./xAxis";

/** What a compared run brings to a chart: its rows (metricColumns), last iteration and final evaluation. */
export interface ComparedRun {
  iteration: number;
  finalRealSuccess: number | null;
  rows: readonly CurveRow[];
}

/**
 * One column of several runs on one chart: each run's values as its own column (r0, r1, …), each run placed on
 * the x axis by its own clock (`xOfs[i]`; iterations when none is given), rows at the same x joined. On the
 * real-env success chart each finished run's final evaluation ends its line: `finals[i]` says at which iteration
 * and `finalXs[i]` where on the axis (null: none).
 */
export function comparedRows(
  runs: readonly ComparedRun[],
  column: string,
  xOfs: ReadonlyArray<(iteration: number) => number | null> = [],
): { rows: PlotRow[]; finals: Array<number | null>; finalXs: Array<number | null> } {
  const finals = runs.map((run) =>
    column === "realSuccess" && run.finalRealSuccess !== null
      ? finalIteration(run.iteration, run.rows)
      : null,
  );
  const parts = runs.map((run, i) => {
    const key = `r${i}`;
    let rows: CurveRow[] = run.rows.map(
      (row) => ({ iteration: row.iteration, [key]: row[column] ?? null }) as CurveRow,
    );
    const at = finals[i];
    if (at !== null && at !== undefined) rows = withFinal(rows, key, run.finalRealSuccess, at);
    return placeRows(rows, xOfs[i] ?? ((it) => it));
  });
  const finalXs = finals.map((at, i) =>
    at === null || at === undefined ? null : (xOfs[i] ?? ((it) => it))(at),
  );
  return { rows: mergeByX(parts), finals, finalXs };
}
