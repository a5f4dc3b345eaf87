import { RunStatus } from "@/shared/enums";

/** Display helpers shared by the runs screens. */
export function pct(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || Number.isNaN(x) ? "—" : `${(x * 100).toFixed(digits)}%`;
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

export function seconds(x: number): string {
  if (x < 60) return `${x.toFixed(1)} s`;
  return `${Math.floor(x / 60)} min ${Math.round(x % 60)} s`;
}
