/**
 * GRPO, PPO and behaviour cloning for the linear policy; the same code trains in real and synthetic environments.
 * GRPO and PPO are configurations of one update loop (update.ts) with registries of advantage estimators
 * (estimators.ts), policy losses (policyLosses.ts) and aggregations (aggregation.ts), and a critic's part
 * (critic.ts).
 *
 * One GRPO iteration, as a training loop would write it:
 *
 *   const policy = new LinearPolicy({ candidates: domain.candidateActions, seed });
 *   const grpo = new Grpo(policy, { learningRate: 0.01 });          // keeps its Adam state across iterations
 *   const groups = await Promise.all(tasks.map((task) =>
 *     collectGroup(() => makeEnv(), policy, task, domain.maxSteps, 8, `iter${i}:${task.id}`)));
 *   const stats = grpo.update(groups.map((g) => g.map((e) => e.decisions)));
 *
 * PPO is the same with collectEpisode(..., value) per rollout and new Ppo(policy, value).update(groups);
 * behaviour cloning is new BehaviourCloning(policy).fit(replayDecisions(policy, task, expertEpisode.steps)).
 */

export type { Decision, DecisionEpisode } from "../policy/decision";
export { Adam, type AdamConfig } from "./adam";
export {
  drGrpoAdvantages,
  GRPO_ADVANTAGE_EPSILON,
  grpoAdvantages,
  minibatchNormalisation,
} from "./advantages";
export { AGGREGATION_NAMES, AGGREGATIONS, type AggregationName } from "./aggregation";
export { BC_DEFAULTS, type BcConfig, type BcStats, BehaviourCloning } from "./bc";
export { type CollectedEpisode, collectEpisode, collectGroup, toDecisionEpisode } from "./collect";
export { type Critic, explainedVariance, valueLoss } from "./critic";
export {
  ADVANTAGE_ESTIMATORS,
  type AdvantageEstimator,
  type EpisodeAdvantages,
  OUTCOME_ESTIMATORS,
  type OutcomeEstimatorName,
} from "./estimators";
export { gae } from "./gae";
export { GRPO_DEFAULTS, Grpo, type GrpoConfig } from "./grpo";
export { minibatchIndices } from "./minibatch";
export {
  POLICY_LOSS_NAMES,
  POLICY_LOSSES,
  type PolicyLoss,
  type PolicyLossName,
  type PolicyLossSettings,
  policyLossOf,
} from "./policyLosses";
export { PPO_DEFAULTS, Ppo, type PpoConfig, type PpoStats } from "./ppo";
export type { CriticStats, UpdateStats } from "./stats";
export { approxKlTerm, type ClippedTerm, clippedSurrogate, type KlTerm, k3Kl } from "./surrogate";
export {
  CLIPPED_UPDATE_DEFAULTS,
  type ClippedUpdateConfig,
  RlUpdate,
  type UpdateParts,
  type UpdateSettings,
} from "./update";
