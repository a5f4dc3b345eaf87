import type { Observation } from "../../types";

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

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word) || word.length <= 1;
}

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

const SEGMENT = /\s*\[SEP\]\s*|\n/;
const ARGUMENT = /^[a-z_]+\[(.*)\]$/i;

/**
 * The part of a state that says what *is*, for goal evidence: without the instruction the page echoes back
 * (WebShop repeats it on every page, which would make every state look like it satisfies the goal) and without
 * the segments that are only buttons (an option you could click is not an option you chose).
 */
export function situationOf(instruction: string, state: Observation, action: string): string {
  const buttons = new Set(
    (state.actions ?? []).map((a) => (ARGUMENT.exec(a)?.[1] ?? a).trim().toLowerCase()),
  );
  const echo = instruction.trim().toLowerCase();
  const kept = state.text
    .split(SEGMENT)
    .filter((segment) => {
      const s = segment.trim().toLowerCase();
      return s !== "" && s !== echo && !buttons.has(s);
    })
    .map((segment) => segment.replaceAll(instruction, " "));
  return `${kept.join("\n")}\n${action}`;
}
