/** The page's state in the URL: which domain's suite, and which cases (flagged steps or held-out transitions). */
export const CASE_SOURCES = ["flagged", "held-out"] as const;
export type CaseSource = (typeof CASE_SOURCES)[number];

export const SOURCE_LABELS: Record<CaseSource, string> = {
  flagged: "Flagged steps",
  "held-out": "Held-out transitions",
};

export function readRegressionParams(params: URLSearchParams): {
  domain: string | undefined;
  source: CaseSource;
} {
  const source = params.get("cases");
  return {
    domain: params.get("domain") || undefined,
    source: source === "held-out" ? "held-out" : "flagged",
  };
}

/** The held-out fidelity figures a version's column shows, from RegressionCheck.fidelity (server/regression). */
export function heldOutFigures(
  fidelity: unknown,
): { tokenF1: number; rewardAccuracy: number; doneAccuracy: number } | null {
  if (typeof fidelity !== "object" || fidelity === null) return null;
  const heldOut = (fidelity as { heldOut?: unknown }).heldOut;
  if (typeof heldOut !== "object" || heldOut === null) return null;
  const f = heldOut as Record<string, unknown>;
  const num = (key: string) => (typeof f[key] === "number" ? (f[key] as number) : null);
  const tokenF1 = num("tokenF1");
  const rewardAccuracy = num("rewardAccuracy");
  const doneAccuracy = num("doneAccuracy");
  if (tokenF1 === null || rewardAccuracy === null || doneAccuracy === null) return null;
  return { tokenF1, rewardAccuracy, doneAccuracy };
}
