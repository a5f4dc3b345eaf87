/**
 * Why a step of an episode from `source` cannot be flagged, or null when it can. Only synthetic steps hold the
 * experience model's prediction; offline and real steps are what the environment did, so nothing in them can be
 * hallucinated (the server refuses them too).
 */
export function flagUnavailableReason(source: string): string | null {
  if (source === "synthetic") return null;
  const what = source === "offline" ? "an offline step" : `a ${source} step`;
  return `Nothing to flag: this is ${what}, what the real environment did. Only synthetic steps, predicted by the experience model, can be flagged as hallucinated.`;
}
