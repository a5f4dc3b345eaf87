import type { Observation } from "../types";
import { segmentsOf } from "./segments";

/**
 * How faithful an experience model is to a real environment, one transition at a time. Pure functions over
 * (prediction, real outcome, inputs), so the figures can be checked on hand cases.
 */

export interface Outcome {
  next: Observation;
  reward: number;
  done: boolean;
  valid: boolean;
  /** The verdict that the task was accomplished (only an ending step can say yes); absent where not known. */
  success?: boolean;
}

/** Everything the model was given about the situation (not its demonstrations: copying a neighbour's wrong
 * detail is a hallucination about this environment). */
export interface FidelityInputs {
  instruction: string;
  state: string;
  action: string;
  history: string[];
}

export function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9$]+(?:\.[0-9]+)?/g) ?? [];
}

/** SQuAD-style token F1 over word multisets. */
export function tokenF1(predicted: string, real: string): number {
  const p = words(predicted);
  const r = words(real);
  if (p.length === 0 && r.length === 0) return 1;
  if (p.length === 0 || r.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const w of r) counts.set(w, (counts.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of p) {
    const n = counts.get(w) ?? 0;
    if (n > 0) {
      common++;
      counts.set(w, n - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / p.length;
  const recall = common / r.length;
  return (2 * precision * recall) / (precision + recall);
}

export function exactMatch(predicted: string, real: string): boolean {
  return words(predicted).join(" ") === words(real).join(" ");
}

/** Page elements: the fields between a page's own marker (segments.ts), lines, sentences and list items. */
export function elements(text: string): string[] {
  return segmentsOf(text)
    .flatMap((segment) => segment.split(/(?<=[.!?])\s+|,\s*(?:and\s+)?/))
    .map((e) =>
      words(e)
        .filter((w) => w !== "a" && w !== "an" && w !== "the" && w !== "and")
        .join(" "),
    )
    .filter((e) => e.length > 0);
}

/** Elements of the predicted next state found neither in the real next state nor in the model's inputs. */
export function hallucinatedElements(predicted: string, real: string, inputs: FidelityInputs): string[] {
  const realElements = new Set(elements(real));
  const known = words(
    [inputs.instruction, inputs.state, inputs.action, ...inputs.history, real].join("\n"),
  ).join(" ");
  return elements(predicted).filter((e) => !realElements.has(e) && !` ${known} `.includes(` ${e} `));
}

export interface TransitionScore {
  exact: boolean;
  f1: number;
  rewardError: number;
  /** Predicted minus real reward: its mean over final steps says whether the model is too generous. */
  rewardBias: number;
  /** The real episode ended here: the step whose outcome reward training depends on. */
  terminal: boolean;
  doneMatch: boolean;
  validMatch: boolean;
  predictedElements: number;
  hallucinated: number;
  latencyMs: number;
  /** The model's confidence in this prediction (absent when it reports none). */
  confidence?: number;
  /** Both verdicts of success, where both are known: what a synthetic success rate is made of. */
  success?: { predicted: boolean; real: boolean };
  /** The action's kind (admissible.ts actionTemplate), where the caller knows the state it was taken in. */
  template?: string;
}

export function scoreTransition(
  predicted: Outcome & { latencyMs: number; confidence?: number },
  real: Outcome,
  inputs: FidelityInputs,
): TransitionScore {
  return {
    exact: exactMatch(predicted.next.text, real.next.text),
    f1: tokenF1(predicted.next.text, real.next.text),
    rewardError: Math.abs(predicted.reward - real.reward),
    rewardBias: predicted.reward - real.reward,
    terminal: real.done,
    doneMatch: predicted.done === real.done,
    validMatch: predicted.valid === real.valid,
    predictedElements: elements(predicted.next.text).length,
    hallucinated: hallucinatedElements(predicted.next.text, real.next.text, inputs).length,
    latencyMs: predicted.latencyMs,
    ...(predicted.confidence !== undefined ? { confidence: predicted.confidence } : {}),
    ...(predicted.success !== undefined && real.success !== undefined
      ? { success: { predicted: predicted.success, real: real.success } }
      : {}),
  };
}

/**
 * A prediction wrong in any way the training signal feels: an element of the next page that is not there, a
 * reward off by more than the tolerance, the wrong end of the episode, or an impossible action taken as possible.
 */
export function isWrong(s: TransitionScore): boolean {
  return s.hallucinated > 0 || s.rewardError > REWARD_TOLERANCE || !s.doneMatch || !s.validMatch;
}

/**
 * How well confidence tells right predictions from wrong ones: the probability that a right prediction has more
 * confidence than a wrong one (ties count half), i.e. the area under the ROC curve. 0.5 is no better than a coin;
 * null without both kinds or without confidences.
 */
export function confidenceAuroc(scores: readonly TransitionScore[]): number | null {
  const right: number[] = [];
  const wrong: number[] = [];
  for (const s of scores) if (s.confidence !== undefined) (isWrong(s) ? wrong : right).push(s.confidence);
  if (right.length === 0 || wrong.length === 0) return null;
  // Mann–Whitney U over the pooled ranks (average ranks for ties), in O(n log n).
  const pooled = [...right.map((v) => ({ v, right: true })), ...wrong.map((v) => ({ v, right: false }))].sort(
    (a, b) => a.v - b.v,
  );
  let rankSumRight = 0;
  for (let i = 0; i < pooled.length; ) {
    let j = i;
    while (j < pooled.length && pooled[j]!.v === pooled[i]!.v) j++;
    const averageRank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if (pooled[k]!.right) rankSumRight += averageRank;
    i = j;
  }
  const u = rankSumRight - (right.length * (right.length + 1)) / 2;
  return u / (right.length * wrong.length);
}

export interface FidelityReport {
  transitions: number;
  exactMatch: number;
  tokenF1: number;
  /** Share of transitions whose predicted reward is within REWARD_TOLERANCE of the real one. */
  rewardAccuracy: number;
  rewardMAE: number;
  /** Reward error and bias on the real episodes' final steps only (most steps have reward 0 either way). */
  terminalTransitions: number;
  terminalRewardMAE: number;
  terminalRewardBias: number;
  doneAccuracy: number;
  invalidActionAgreement: number;
  /** Hallucinated elements over all predicted elements (pooled). */
  hallucinationRate: number;
  /** Does the model know when it does not know? Confidence's AUROC for right vs wrong predictions (isWrong). */
  confidenceAuroc: number | null;
  /** Mean confidence of the right and of the wrong predictions. */
  confidenceRight: number | null;
  confidenceWrong: number | null;
  /**
   * The verdicts of success: of the predicted successes, the share that were real ones (below 1, a policy is told
   * it succeeded where it did not: the sim-to-real gap of a success rate); of the real successes, the share
   * predicted. Null where no transition has both verdicts, or none of the kind.
   */
  successPrecision: number | null;
  successRecall: number | null;
  latencyMsMean: number;
  latencyMsP95: number;
}

export const REWARD_TOLERANCE = 0.1;

const round = (x: number) => Math.round(x * 10_000) / 10_000;

function meanOf(items: TransitionScore[], f: (s: TransitionScore) => number): number {
  return items.length === 0 ? 0 : items.reduce((a, s) => a + f(s), 0) / items.length;
}

const nullableRound = (x: number | null) => (x === null ? null : round(x));

/** The share of `items` for which `hit` holds, or null for none. */
function shareOf<T>(items: T[], hit: (item: T) => boolean): number | null {
  return items.length === 0 ? null : round(items.filter(hit).length / items.length);
}

function meanConfidence(scores: TransitionScore[]): number | null {
  const values = scores.flatMap((s) => (s.confidence !== undefined ? [s.confidence] : []));
  return values.length === 0 ? null : round(values.reduce((a, v) => a + v, 0) / values.length);
}

export function aggregate(scores: TransitionScore[]): FidelityReport {
  const n = scores.length;
  const mean = (f: (s: TransitionScore) => number) =>
    n === 0 ? 0 : scores.reduce((a, s) => a + f(s), 0) / n;
  const terminals = scores.filter((s) => s.terminal);
  const predicted = scores.reduce((a, s) => a + s.predictedElements, 0);
  const hallucinated = scores.reduce((a, s) => a + s.hallucinated, 0);
  const latencies = scores.map((s) => s.latencyMs).sort((a, b) => a - b);
  const verdicts = scores.flatMap((s) => (s.success ? [s.success] : []));
  return {
    transitions: n,
    exactMatch: round(mean((s) => (s.exact ? 1 : 0))),
    tokenF1: round(mean((s) => s.f1)),
    rewardAccuracy: round(mean((s) => (s.rewardError <= REWARD_TOLERANCE ? 1 : 0))),
    rewardMAE: round(mean((s) => s.rewardError)),
    terminalTransitions: terminals.length,
    terminalRewardMAE: round(meanOf(terminals, (s) => s.rewardError)),
    terminalRewardBias: round(meanOf(terminals, (s) => s.rewardBias)),
    doneAccuracy: round(mean((s) => (s.doneMatch ? 1 : 0))),
    invalidActionAgreement: round(mean((s) => (s.validMatch ? 1 : 0))),
    hallucinationRate: round(predicted === 0 ? 0 : hallucinated / predicted),
    confidenceAuroc: nullableRound(confidenceAuroc(scores)),
    confidenceRight: meanConfidence(scores.filter((s) => !isWrong(s))),
    confidenceWrong: meanConfidence(scores.filter(isWrong)),
    successPrecision: shareOf(
      verdicts.filter((v) => v.predicted),
      (v) => v.real,
    ),
    successRecall: shareOf(
      verdicts.filter((v) => v.real),
      (v) => v.predicted,
    ),
    latencyMsMean: round(mean((s) => s.latencyMs)),
    latencyMsP95: round(latencies[Math.min(n - 1, Math.floor(0.95 * n))] ?? 0),
  };
}

export interface ActionTypeFidelity {
  transitions: number;
  exactMatch: number;
  tokenF1: number;
  hallucinationRate: number;
  rewardMAE: number;
  doneAccuracy: number;
  invalidActionAgreement: number;
}

/** The figures of `aggregate` for each kind of action: where a model parts from its environment. */
export function byActionType(scores: readonly TransitionScore[]): Record<string, ActionTypeFidelity> {
  const groups = new Map<string, TransitionScore[]>();
  for (const s of scores) {
    const key = s.template ?? "?";
    const group = groups.get(key) ?? [];
    group.push(s);
    groups.set(key, group);
  }
  return Object.fromEntries(
    [...groups]
      .sort((a, b) => b[1].length - a[1].length)
      .map(([template, group]) => {
        const report = aggregate(group);
        return [
          template,
          {
            transitions: report.transitions,
            exactMatch: report.exactMatch,
            tokenF1: report.tokenF1,
            hallucinationRate: report.hallucinationRate,
            rewardMAE: report.rewardMAE,
            doneAccuracy: report.doneAccuracy,
            invalidActionAgreement: report.invalidActionAgreement,
          },
        ];
      }),
  );
}
