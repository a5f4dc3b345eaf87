/** A zoomed x range, [from, to] in the axis's unit; null: everything. */
export type XRange = readonly [number, number] | null;

/**
 * The range a drag across a chart selects, whichever way it went; null when it selects no width (a click), so a
 * click never zooms to nothing.
 */
export function dragRange(from: number | null | undefined, to: number | null | undefined): XRange {
  if (typeof from !== "number" || typeof to !== "number" || !Number.isFinite(from) || !Number.isFinite(to))
    return null;
  if (from === to) return null;
  return from < to ? [from, to] : [to, from];
}

/** The rows inside the range (all when none is set). */
export function inRange<T extends { x: number }>(rows: readonly T[], range: XRange): T[] {
  if (!range) return [...rows];
  return rows.filter((r) => r.x >= range[0] && r.x <= range[1]);
}
