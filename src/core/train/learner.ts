import type { LinearSoftmaxPolicy } from "../policy/linearSoftmax";
import { LinearValue } from "../policy/value";
import type { DecisionEpisode } from "../rl/decision";
import { Grpo, type GrpoConfig } from "../rl/grpo";
import { Ppo, type PpoConfig } from "../rl/ppo";
import type { UpdateStats } from "../rl/stats";

/** GRPO or PPO behind one face, so that one iteration serves both (and real and synthetic environments). */
export interface Learner {
  readonly algorithm: "grpo" | "ppo";
  /** PPO's critic: rollouts record its value estimates. */
  readonly value?: LinearValue;
  /** One update from the iteration's groups (one group per task). */
  update(groups: DecisionEpisode[][]): UpdateStats;
}

export function grpoLearner(policy: LinearSoftmaxPolicy, config: Partial<GrpoConfig> = {}): Learner {
  const grpo = new Grpo(policy, config);
  return { algorithm: "grpo", update: (groups) => grpo.update(groups) };
}

/** PPO sees episodes, not groups: its baseline is the critic, not the group mean. */
export function ppoLearner(
  policy: LinearSoftmaxPolicy,
  config: Partial<PpoConfig> = {},
  value = new LinearValue(policy.dimension),
): Learner {
  const ppo = new Ppo(policy, value, config);
  return { algorithm: "ppo", value, update: (groups) => ppo.update(groups.flat()) };
}
