import type { MarkerShape } from "../format";

/** One line of a CurveChart: its data column, legend label and look, and where its final evaluation is. */
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
  /** Where that point lies on the chart's x axis (its iteration, transitions or time); null: not on this axis. */
  finalX?: number | null;
}
