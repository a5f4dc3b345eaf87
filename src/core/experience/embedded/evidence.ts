/**
 * How much of the task instruction a situation already satisfies: the share of the instruction's content words
 * that appear in the state and action. Outcome rewards depend on exactly this (the right product with the
 * right options; the right object in the right place), so demonstrations with similar evidence are the best
 * guide to the reward of the current step.
 */
const STOPWORDS = new Set(
  "a an the and or of in on at to for with from by is are be i im i'm me my we you your it its that this these those need want looking find buy get some put look under lower than price dollars dollar please can could would like task your".split(
    " ",
  ),
);

export function contentWords(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[a-z0-9]+(?:\.[0-9]+)?/g) ?? [])].filter(
    (w) => !STOPWORDS.has(w) && w.length > 1,
  );
}

export function goalEvidence(instruction: string, situation: string): number {
  const goal = contentWords(instruction);
  if (goal.length === 0) return 0;
  const seen = new Set(contentWords(situation));
  return goal.filter((w) => seen.has(w)).length / goal.length;
}
