/** Beyond this many decimals a value is shown cut towards its true side rather than rounded. */
const MAX_DECIMALS = 6;
/** Sums of rewards carry float noise (0.1 + 0.2 + 0.7): within this of a whole number, it is that number. */
const WHOLE_EPSILON = 1e-9;

const isWhole = (x: number) => Math.abs(x - Math.round(x)) < WHOLE_EPSILON;

/**
 * A reward or a return for display, with `decimals` decimals unless rounding would make a value that is not a
 * whole number read as one: a predicted reward of 0.998 is "0.998", never "1.00" (nor 0.001 "0.00"), because a
 * reward of exactly 1 (or 0) is what success (or failure) gives, and an experience model that is almost sure is
 * not the same. More decimals are added until the value stops looking whole (up to six, then it is cut towards
 * its true side). `trim` drops trailing zeros ("reward 1", "reward 0.5").
 */
export function formatReward(value: number, { decimals = 2, trim = false } = {}): string {
  const show = (text: string) => (trim ? String(Number(text)) : text);
  if (!Number.isFinite(value)) return String(value);
  if (isWhole(value)) return show(Math.round(value).toFixed(decimals));
  for (let d = decimals; d <= MAX_DECIMALS; d++) {
    const text = value.toFixed(d);
    if (!isWhole(Number(text))) return show(text);
  }
  const scale = 10 ** MAX_DECIMALS;
  const cut = value < Math.round(value) ? Math.floor(value * scale) : Math.ceil(value * scale);
  return show((cut / scale).toFixed(MAX_DECIMALS));
}
