/**
 * A step in a URL (`?step=3`) counts from 1, as the step view says "Step 3 of 9"; code counts from 0. Every link to
 * a step and the step view itself go through these two.
 */
export function stepParam(index: number): string {
  return String(index + 1);
}

/** The 0-based index a URL's `step` names; a missing or unusable value is the first step. */
export function stepIndexOf(param: string | null | undefined): number {
  const n = Number(param);
  return Number.isInteger(n) && n >= 1 ? n - 1 : 0;
}

/** The step view of a trajectory at a 0-based step index. */
export function stepLink(trajectoryId: string, index: number): string {
  return `/trajectories/${encodeURIComponent(trajectoryId)}?step=${stepParam(index)}`;
}
