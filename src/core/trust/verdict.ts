import type { Calibration, OutcomeCalibration } from "./calibration";
import type { HeldOutFidelity } from "./heldOutFidelity";

/**
 * Whether an imported domain's proxies (synthetic success, confidence, action agreement) can be believed, from
 * the experience model's figures on the held-out logs. Each threshold below is one rule; a rule whose figure is
 * missing, or rests on fewer than MIN_OUTCOMES episodes, is listed as unchecked rather than passed silently.
 */

/**
 * Above this share of logged failures ended in success by the model, a synthetic success rate counts failures as
 * wins often enough that a policy can raise it by failing in the ways the model pays: one failure in five.
 */
export const MAX_FALSE_SUCCESS = 0.2;
/**
 * Below this share of the model's successes that the logs confirm, fewer than seven in ten synthetic successes
 * are real ones: the synthetic success rate then overstates real success by half again or more.
 */
export const MIN_SUCCESS_PRECISION = 0.7;
/**
 * Below this share of logged successes the model also ends in success, it misses most real successes: a good
 * policy and a bad one then score alike (near zero), so synthetic success cannot rank them.
 */
export const MIN_SUCCESS_RECALL = 0.5;
/**
 * An untrained policy (uniform over its candidate actions) plays about as well as the logs' weakest random or noisy
 * play. Its synthetic success more than 10 points above that play's logged success rate is the model paying for
 * behaviour it should not. 10 points is about one and a half standard errors of the difference between a rate over
 * 40 evaluation episodes and one over 30 logs near 10%: a model that pays fairly is rarely flagged by chance.
 */
export const MAX_UNTRAINED_EXCESS = 0.1;
/**
 * A trained policy's synthetic success more than 15 points above the best logged behaviour's success rate claims
 * a policy learnt only from these logs beats every policy that wrote them: more likely the model's generosity.
 */
export const MAX_SYNTHETIC_EXCESS = 0.15;
/**
 * A trained policy's synthetic success more than 15 points above the success the model itself gives the best
 * logged behaviour's episodes when it replays them: the policy found something the model pays that the best logged
 * play never did (the same margin as MAX_SYNTHETIC_EXCESS).
 */
export const MAX_SYNTHETIC_OVER_REPLAY = 0.15;

/**
 * Above this share of predicted page elements found neither in the logged next state nor in the model's inputs,
 * about one element in seven is invented: a policy learns to act on things that are not there.
 */
export const MAX_HALLUCINATION = 0.15;
/**
 * Below this token F1 with the logged next state, the predicted state shares less than half its words with the
 * real one: mostly a different state, whatever the policy does next is learnt on the wrong page.
 */
export const MIN_TOKEN_F1 = 0.5;
/**
 * Above this mean reward error per step, the reward a policy is trained on is off by more than a sixth of a 0–1
 * reward at every step: dense rewards mislead the update more than they guide it.
 */
export const MAX_REWARD_MAE = 0.15;
/**
 * Above this mean reward error at the logs' episode ends, where outcome rewards are paid, one ending in four is
 * paid wrongly on 0/1 rewards: the signal GRPO and PPO learn from is a quarter noise.
 */
export const MAX_TERMINAL_REWARD_MAE = 0.25;
/**
 * Below this AUROC of the model's confidence for its right against its wrong held-out predictions, more than a
 * third of (wrong, right) pairs are held at least as confidently the wrong way round (0.5 is chance): the
 * confidence proxy, and the pessimism that acts on it (MOReL's halt, MOPO's penalty), cannot tell where the
 * model errs.
 */
export const MIN_CONFIDENCE_AUROC = 0.65;

/** A share over fewer episodes moves by 20 points or more with one episode: too few to judge by. */
export const MIN_OUTCOMES = 5;

export interface TrustVerdictInput {
  fidelity: HeldOutFidelity;
  calibration: Calibration;
  /** Calibration per logged policy label, for the untrained and trained policies' reference rates. */
  byPolicy?: Record<string, OutcomeCalibration>;
  /** The untrained policy's success in the synthetic environment on the held-out tasks. */
  untrainedSyntheticSuccess?: number;
  /** A trained policy's success in the synthetic environment on the held-out tasks. */
  syntheticSuccess?: number;
}

export interface TrustVerdict {
  /** True when no checked rule failed (unchecked rules do not fail it). */
  trustworthy: boolean;
  /** One sentence per failed rule, with its figures. */
  reasons: string[];
  /** One sentence per rule that could not be checked, and why. */
  unchecked: string[];
}

type Finding = { reason: string } | { unchecked: string } | null;
type Rule = (input: TrustVerdictInput) => Finding;

/** Figures are kept to 4 decimals (experience/fidelity.ts): a difference is judged at the same precision. */
const gap = (a: number, b: number) => Math.round((a - b) * 10_000) / 10_000;
const pct = (x: number) => `${Math.round(x * 100)}%`;
const points = (x: number) => `${Math.round(x * 100)} points`;

const falseSuccess: Rule = ({ calibration: c }) => {
  const failures = c.episodes - Math.round(c.base * c.episodes);
  if (c.falseSuccess === null || failures < MIN_OUTCOMES)
    return { unchecked: `Too few logged failures (${failures}) to tell whether the model pays for failure.` };
  if (c.falseSuccess <= MAX_FALSE_SUCCESS) return null;
  return {
    reason: `The experience model called ${pct(c.falseSuccess)} of the held-out episodes that failed a success (at most ${pct(MAX_FALSE_SUCCESS)} is acceptable): synthetic success counts failures as wins.`,
  };
};

const precision: Rule = ({ calibration: c }) => {
  const predicted = Math.round(c.predicted * c.episodes);
  if (c.precision === null || predicted < MIN_OUTCOMES)
    return {
      unchecked: `The model ended too few held-out episodes in success (${predicted}) to measure how many of its successes are real.`,
    };
  if (c.precision >= MIN_SUCCESS_PRECISION) return null;
  return {
    reason: `Only ${pct(c.precision)} of the successes the experience model predicted were successes in the logs (at least ${pct(MIN_SUCCESS_PRECISION)} is needed): synthetic success overstates real success.`,
  };
};

const recall: Rule = ({ calibration: c }) => {
  const successes = Math.round(c.base * c.episodes);
  if (c.recall === null || successes < MIN_OUTCOMES)
    return {
      unchecked: `Too few logged successes (${successes}) to tell whether the model recognises success.`,
    };
  if (c.recall >= MIN_SUCCESS_RECALL) return null;
  return {
    reason: `Replaying the held-out logs, the experience model ended only ${pct(c.recall)} of the logged successes in success (at least ${pct(MIN_SUCCESS_RECALL)} is needed; logs ${pct(c.base)} successful, model ${pct(c.predicted)}): synthetic success understates and cannot tell a good policy from a bad one.`,
  };
};

/** Behaviour labels the collection and imports write for weak play (not a domain's words). */
const WEAK_PLAY = /^(random|noisy)\b/i;

/**
 * The logged play an untrained policy should not beat: the weakest random or noisy play with at least
 * MIN_OUTCOMES logs (an untrained policy plays no better than any of them), else all the held-out logs.
 */
export function untrainedReference(
  calibration: OutcomeCalibration,
  byPolicy: Record<string, OutcomeCalibration> = {},
): { label: string; base: number } {
  const weak = Object.entries(byPolicy)
    .filter(([label, c]) => WEAK_PLAY.test(label) && c.episodes >= MIN_OUTCOMES)
    .sort(([a, x], [b, y]) => x.base - y.base || (a < b ? -1 : 1));
  const [label, c] = weak[0] ?? ["all held-out logs", calibration];
  return { label, base: c.base };
}

const untrainedExcess: Rule = ({ calibration, byPolicy, untrainedSyntheticSuccess: u }) => {
  if (u === undefined) return { unchecked: "No untrained policy's synthetic success was given to compare." };
  const reference = untrainedReference(calibration, byPolicy);
  if (gap(u, reference.base) <= MAX_UNTRAINED_EXCESS) return null;
  return {
    reason: `An untrained policy succeeds ${pct(u)} of the time in the synthetic environment, ${points(u - reference.base)} above the ${pct(reference.base)} the logs show for ${reference.label} (at most ${points(MAX_UNTRAINED_EXCESS)} above is acceptable): the model pays for almost any behaviour.`,
  };
};

/** The logged behaviour with the highest success rate and at least MIN_OUTCOMES logs, else all the held-out logs. */
function bestBehaviour(
  calibration: OutcomeCalibration,
  byPolicy: Record<string, OutcomeCalibration>,
): [string, OutcomeCalibration] {
  const rows = Object.entries(byPolicy).filter(([, c]) => c.episodes >= MIN_OUTCOMES);
  return rows.sort(([, x], [, y]) => y.base - x.base)[0] ?? ["all held-out logs", calibration];
}

const syntheticExcess: Rule = ({ calibration, byPolicy = {}, syntheticSuccess: s }) => {
  if (s === undefined) return { unchecked: "No trained policy's synthetic success was given to compare." };
  const [label, best] = bestBehaviour(calibration, byPolicy);
  if (gap(s, best.base) <= MAX_SYNTHETIC_EXCESS) return null;
  return {
    reason: `The trained policy's synthetic success (${pct(s)}) is ${points(s - best.base)} above the best logged behaviour (${label}, ${pct(best.base)}; at most ${points(MAX_SYNTHETIC_EXCESS)} above is believable): more likely the model's generosity than real skill.`,
  };
};

/** Unchecked without a trained policy's figure: syntheticExcess already says so. */
const syntheticOverReplay: Rule = ({ calibration, byPolicy = {}, syntheticSuccess: s }) => {
  if (s === undefined) return null;
  const [label, best] = bestBehaviour(calibration, byPolicy);
  if (gap(s, best.predicted) <= MAX_SYNTHETIC_OVER_REPLAY) return null;
  return {
    reason: `The trained policy succeeds ${pct(s)} of the time in the synthetic environment, yet the model ended only ${pct(best.predicted)} of the best logged behaviour's episodes in success when it replayed them (${label}, ${pct(best.base)} successful in the logs; at most ${points(MAX_SYNTHETIC_OVER_REPLAY)} between the two is believable): the policy is paid for behaviour the logs never show succeeding.`,
  };
};

const hallucination: Rule = ({ fidelity: f }) =>
  f.hallucinationRate <= MAX_HALLUCINATION
    ? null
    : {
        reason: `${pct(f.hallucinationRate)} of what the experience model showed on held-out steps was in neither the logged next state nor its inputs (at most ${pct(MAX_HALLUCINATION)} is acceptable): it invents what policies learn from.`,
      };

const tokenF1: Rule = ({ fidelity: f }) =>
  f.tokenF1 >= MIN_TOKEN_F1
    ? null
    : {
        reason: `The predicted next states share only ${pct(f.tokenF1)} of their words with the logged ones (token F1; at least ${pct(MIN_TOKEN_F1)} is needed): the model does not know where an action leads.`,
      };

const rewardError: Rule = ({ fidelity: f }) =>
  f.rewardMAE <= MAX_REWARD_MAE
    ? null
    : {
        reason: `The experience model's reward is off by ${f.rewardMAE.toFixed(4)} per held-out step on average (at most ${MAX_REWARD_MAE} is acceptable).`,
      };

const terminalRewardError: Rule = ({ fidelity: f }) => {
  if (f.terminalTransitions < MIN_OUTCOMES)
    return {
      unchecked: `Too few held-out episode ends scored (${f.terminalTransitions}) to judge the outcome reward.`,
    };
  if (f.terminalRewardMAE <= MAX_TERMINAL_REWARD_MAE) return null;
  const way =
    f.terminalRewardBias < 0
      ? "too little"
      : f.terminalRewardBias > 0
        ? "too much"
        : "too much and too little";
  return {
    reason: `At the end of held-out episodes the experience model's reward is off by ${f.terminalRewardMAE.toFixed(4)} on average, paying ${way} (at most ${MAX_TERMINAL_REWARD_MAE} is acceptable): the outcome reward policies learn from is unreliable.`,
  };
};

const confidenceRanking: Rule = ({ fidelity: f }) => {
  if (f.confidenceAuroc === null)
    return {
      unchecked:
        "The held-out predictions were all right or all wrong: no telling whether confidence falls where the model errs.",
    };
  if (f.confidenceAuroc >= MIN_CONFIDENCE_AUROC) return null;
  const wrong = f.confidenceWrong === null ? "" : `; ${pct(f.confidenceWrong)} on its wrong predictions`;
  const right = f.confidenceRight === null ? "" : ` against ${pct(f.confidenceRight)} on its right ones`;
  return {
    reason: `The experience model is as sure where it is wrong as where it is right (confidence AUROC ${f.confidenceAuroc.toFixed(2)}, at least ${MIN_CONFIDENCE_AUROC} is needed${wrong}${right}): its confidence, and pessimism acting on it, cannot tell where it errs.`,
  };
};

const RULES: Rule[] = [
  falseSuccess,
  precision,
  recall,
  untrainedExcess,
  syntheticExcess,
  syntheticOverReplay,
  hallucination,
  tokenF1,
  rewardError,
  terminalRewardError,
  confidenceRanking,
];

export function trustVerdict(input: TrustVerdictInput): TrustVerdict {
  const reasons: string[] = [];
  const unchecked: string[] = [];
  for (const rule of RULES) {
    const finding = rule(input);
    if (finding === null) continue;
    if ("reason" in finding) reasons.push(finding.reason);
    else unchecked.push(finding.unchecked);
  }
  return { trustworthy: reasons.length === 0, reasons, unchecked };
}
