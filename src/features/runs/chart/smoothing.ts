/**
 * TensorBoard's smoothing: an exponential moving average with its start-up bias removed, so that the first
 * points are not pulled toward zero. `weight` 0 leaves the values as they are; toward 1 the curve flattens.
 * Gaps (null) stay gaps and do not reset the average, as TensorBoard skips non-finite values.
 */
export function smooth(values: ReadonlyArray<number | null>, weight: number): Array<number | null> {
  if (!(weight >= 0 && weight < 1)) throw new Error(`smoothing weight must be in [0, 1), got ${weight}`);
  let last = 0;
  let seen = 0;
  return values.map((v) => {
    if (v === null || !Number.isFinite(v)) return null;
    last = last * weight + (1 - weight) * v;
    seen += 1;
    const debias = 1 - weight ** seen;
    return debias === 0 ? v : last / debias;
  });
}

/** The slider's steps: 0 to 0.99, as TensorBoard's (1 itself would freeze the curve at its first value). */
export const SMOOTHING_MAX = 0.99;

/** A slider value read back from the URL or the input, kept in range; anything unreadable is no smoothing. */
export function smoothingOf(raw: string | null | undefined): number {
  const v = Number(raw);
  if (raw === null || raw === undefined || raw === "" || !Number.isFinite(v)) return 0;
  return Math.min(SMOOTHING_MAX, Math.max(0, v));
}
