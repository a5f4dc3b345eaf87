/** The y axis: linear, or logarithmic for losses and KL that span decades. */
export type YScale = "linear" | "log";

/** A log axis has no place for zero or below: such values are left out of the line rather than drawn wrong. */
export function onScale(v: number | null | undefined, scale: YScale): number | null {
  if (v === null || v === undefined || !Number.isFinite(v)) return null;
  return scale === "log" && v <= 0 ? null : v;
}

function niceStep(span: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(span));
  const f = span / magnitude;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * magnitude;
}

/**
 * The y axis's range for the values on screen. A rate spans 0–100 % (−100…100 % when signed); a log axis whole
 * decades around its positive values; anything else rounded outward to a tenth of a nice step, from zero when no
 * value is negative (a reward or entropy reads against zero). Null when nothing can be drawn.
 */
export function yDomain(
  values: ReadonlyArray<number | null>,
  opts: { percent?: boolean; signed?: boolean; scale: YScale },
): [number, number] | null {
  const finite = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (opts.scale === "log") {
    const positive = finite.filter((v) => v > 0);
    if (positive.length === 0) return null;
    const lo = 10 ** Math.floor(Math.log10(Math.min(...positive)));
    let hi = 10 ** Math.ceil(Math.log10(Math.max(...positive)));
    if (hi <= lo) hi = lo * 10;
    return [lo, hi];
  }
  if (opts.percent) return opts.signed ? [-1, 1] : [0, 1];
  if (finite.length === 0) return null;
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  const lo0 = Math.min(0, min);
  const hi0 = max <= 0 && min < 0 ? 0 : max;
  const span = hi0 - lo0 || Math.abs(hi0) || 1;
  const step = niceStep(span) / 10;
  const lo = Math.floor(lo0 / step) * step;
  const hi = Math.ceil(hi0 / step) * step;
  return [lo, hi === lo ? lo + step : hi];
}

/** Ticks of a log axis: one per decade. */
export function logTicks([lo, hi]: [number, number]): number[] {
  const ticks: number[] = [];
  for (let e = Math.round(Math.log10(lo)); e <= Math.round(Math.log10(hi)); e++) ticks.push(10 ** e);
  return ticks;
}
