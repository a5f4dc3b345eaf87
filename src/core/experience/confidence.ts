import type { Demonstration } from "../replay/buffer";
import { actionTemplate } from "./admissible";
import type { Confidence } from "./types";

/**
 * The confidence of a prediction from its parts: their geometric mean, so that any one part near zero (nothing
 * like this in the buffer, analogues that disagree) pulls the whole down, as a single weak link should.
 */
export function combine(parts: Record<string, number>): Confidence {
  const values = Object.values(parts).map((v) => Math.min(1, Math.max(0, v)));
  const value =
    values.length === 0
      ? 0
      : Math.exp(values.reduce((s, v) => s + Math.log(Math.max(v, 1e-6)), 0) / values.length);
  return {
    value: round(value),
    parts: Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, round(v)])),
  };
}

const round = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;

/**
 * What any experience model's step can be judged by without looking inside the model: the demonstrations it was
 * given. Familiarity is the retriever's best cosine (is this state and action novel for the replay buffer?);
 * agreement is how much the demonstrations of the same kind of action agree on whether it ends the episode and on
 * its reward (analogues that disagree leave the outcome to the model's guess). Used as is for models that say
 * nothing of their own confidence (an LLM's), and as a part of the retrieval model's.
 */
export function demonstrationConfidence(
  action: string,
  demonstrations: readonly Demonstration[],
): Confidence {
  if (demonstrations.length === 0) return combine({ familiarity: 0, agreement: 0 });
  return combine({
    familiarity: Math.max(0, ...demonstrations.map((d) => d.score)),
    agreement: outcomeAgreement(action, demonstrations),
  });
}

/** 1 when the same-kind demonstrations all end (or all continue) the episode with one reward; 0 at an even split. */
export function outcomeAgreement(action: string, demonstrations: readonly Demonstration[]): number {
  // Of one kind in the demonstration's state, where its page says which verbs take any argument.
  const peers = demonstrations.filter(
    (d) => actionTemplate(d.action, d.state) === actionTemplate(action, d.state),
  );
  if (peers.length === 0) return 0.5; // nothing of this kind: no evidence either way
  const outcomes = new Map<string, number>();
  for (const d of peers) {
    const key = `${d.done}:${d.valid}:${Math.round(d.reward * 100)}`;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  }
  const share = Math.max(...outcomes.values()) / peers.length;
  // A share of 1/2 (two outcomes evenly split) is no agreement; 1 is full agreement.
  return Math.max(0, 2 * share - 1);
}
