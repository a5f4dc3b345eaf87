/**
 * The few statistics the reproduction table needs to say what is noise: Student's t intervals for a row's mean,
 * and Welch's interval for the difference of two rows' means (unequal variances, Welch–Satterthwaite degrees of
 * freedom). With five seeds a row's 95% interval is mean ± 2.78 sd/√5, so rows a few points apart often overlap.
 */

// Two-sided 95% quantiles of Student's t by degrees of freedom (1–30), from the standard tables.
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** t's 0.975 quantile; fractional degrees of freedom (Welch) round down, which widens the interval slightly. */
export function t975(df: number): number {
  if (!(df >= 1)) return Number.NaN;
  const whole = Math.floor(df);
  return whole <= 30 ? T975[whole - 1]! : whole <= 60 ? 2.0 : 1.96;
}

export interface Interval {
  low: number;
  high: number;
}

/** The 95% interval of a mean from its samples' mean, sample sd and count; null below two samples. */
export function meanInterval(mean: number | null, sd: number | null, n: number): Interval | null {
  if (mean === null || sd === null || n < 2) return null;
  const half = (t975(n - 1) * sd) / Math.sqrt(n);
  return { low: mean - half, high: mean + half };
}

export interface Difference {
  /** a − b */
  diff: number;
  interval: Interval;
  /** The interval holds 0: the two rows cannot be told apart with these seeds. */
  noise: boolean;
}

/** Welch's 95% interval for the difference of two means; null when either side has under two samples. */
export function welch(
  a: { mean: number | null; sd: number | null; n: number },
  b: { mean: number | null; sd: number | null; n: number },
): Difference | null {
  if (a.mean === null || b.mean === null || a.sd === null || b.sd === null || a.n < 2 || b.n < 2) return null;
  const va = a.sd ** 2 / a.n;
  const vb = b.sd ** 2 / b.n;
  const se = Math.sqrt(va + vb);
  const diff = a.mean - b.mean;
  if (se === 0) return { diff, interval: { low: diff, high: diff }, noise: diff === 0 };
  const df = (va + vb) ** 2 / (va ** 2 / (a.n - 1) + vb ** 2 / (b.n - 1));
  const half = t975(df) * se;
  const interval = { low: diff - half, high: diff + half };
  return { diff, interval, noise: interval.low <= 0 && interval.high >= 0 };
}
