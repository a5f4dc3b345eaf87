/**
 * RunMetric.extra is free-form JSON (losses, entropy, KL, clip fraction, seconds, …) whose keys differ between
 * algorithms and versions; the metrics table shows whatever numbers are there, one column per flattened key.
 */
export type ExtraValues = Record<string, number | string>;

/** Shown elsewhere in the table already. */
const SKIP = new Set(["rolloutSuccess"]);

export function flattenExtra(extra: unknown, prefix = ""): ExtraValues {
  const out: ExtraValues = {};
  if (extra === null || typeof extra !== "object" || Array.isArray(extra)) return out;
  for (const [key, value] of Object.entries(extra)) {
    if (SKIP.has(key)) continue;
    // Nested groups (update.policyLoss) read better without their group name.
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "number" && Number.isFinite(value)) out[name] = value;
    else if (typeof value === "string") out[name] = value;
    else if (value && typeof value === "object") Object.assign(out, flattenExtra(value, name));
  }
  return out;
}

/** Column keys in first-seen order across all rows. */
export function extraColumns(rows: readonly ExtraValues[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

/** "update.clipFraction" → "clip fraction". */
export function columnLabel(key: string): string {
  const last = key.split(".").at(-1) ?? key;
  return last
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .replace(/\bkl\b/g, "KL");
}

export function formatExtra(value: number | string | undefined): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  if (Number.isInteger(value)) return value.toLocaleString("en-US");
  const abs = Math.abs(value);
  return abs !== 0 && (abs < 0.001 || abs >= 100_000) ? value.toExponential(2) : value.toFixed(4);
}
