import { z } from "zod";
import { base64ToFloat32, float32ToBase64 } from "../util/base64";
import type { DecisionEpisode } from "../policy/decision";
import type { LinearPolicy } from "../policy/linearPolicy";
import { LinearValue } from "../policy/value";
import { AdamState } from "../rl/adam";
import { Grpo, type GrpoConfig } from "../rl/grpo";
import { Ppo, type PpoConfig } from "../rl/ppo";
import type { UpdateStats } from "../rl/stats";
import { RL_ALGORITHMS } from "./methods";

/**
 * Everything an update depends on besides the policy's weights: the optimizer's moments and step count, the
 * minibatch shuffle's generator and PPO's critic. Without it a resumed run restarts Adam from zero, draws other
 * minibatches and (PPO) forgets its baseline.
 */
export const LearnerState = z.object({
  algorithm: z.enum(RL_ALGORITHMS),
  optimizer: AdamState,
  rng: z.number().int().min(0),
  /** base64 of the critic's float32 weights (PPO). */
  value: z.string().optional(),
});
export type LearnerState = z.infer<typeof LearnerState>;

/** GRPO or PPO behind one face, so that one iteration serves both (and real and synthetic environments). */
export interface Learner {
  readonly algorithm: "grpo" | "ppo";
  /** PPO's critic: rollouts record its value estimates. */
  readonly value?: LinearValue;
  /** One update from the iteration's groups (one group per task). */
  update(groups: DecisionEpisode[][]): UpdateStats;
  snapshot(): LearnerState;
  /** Continues from a snapshot of the same algorithm; throws, changing nothing, on any other. */
  restore(state: LearnerState): void;
  /** The Adam step size from the next update on (a phase may learn at its own rate); the moments are kept. */
  setLearningRate(learningRate: number): void;
}

function checkAlgorithm(state: LearnerState, algorithm: Learner["algorithm"]): void {
  if (state.algorithm !== algorithm)
    throw new Error(`learner state was saved by ${state.algorithm}, this run trains with ${algorithm}`);
}

/** `reference`: the frozen policy of GRPO's KL penalty, needed when klBeta > 0. */
export function grpoLearner(
  policy: LinearPolicy,
  config: Partial<GrpoConfig> = {},
  reference?: LinearPolicy,
): Learner {
  const grpo = new Grpo(policy, config, reference);
  return {
    algorithm: "grpo",
    update: (groups) => grpo.update(groups),
    snapshot: () => ({ algorithm: "grpo", optimizer: grpo.optimizer.snapshot(), rng: grpo.rng.state32 }),
    setLearningRate(learningRate) {
      grpo.optimizer.learningRate = learningRate;
    },
    restore(state) {
      checkAlgorithm(state, "grpo");
      grpo.optimizer.restore(state.optimizer);
      grpo.rng.state32 = state.rng;
    },
  };
}

/** PPO sees episodes, not groups: its baseline is the critic, not the group mean. */
export function ppoLearner(
  policy: LinearPolicy,
  config: Partial<PpoConfig> = {},
  value = new LinearValue(policy.dimension),
): Learner {
  const ppo = new Ppo(policy, value, config);
  return {
    algorithm: "ppo",
    value,
    update: (groups) => ppo.update(groups.flat()),
    snapshot: () => ({
      algorithm: "ppo",
      optimizer: ppo.optimizer.snapshot(),
      rng: ppo.rng.state32,
      value: float32ToBase64(value.weights),
    }),
    setLearningRate(learningRate) {
      ppo.optimizer.learningRate = learningRate;
    },
    restore(state) {
      checkAlgorithm(state, "ppo");
      if (state.value === undefined) throw new Error("PPO learner state has no critic weights");
      const critic = base64ToFloat32(state.value);
      if (critic.length !== value.dimension)
        throw new Error(`PPO critic state has ${critic.length} weights, this critic has ${value.dimension}`);
      ppo.optimizer.restore(state.optimizer);
      ppo.rng.state32 = state.rng;
      value.weights.set(critic);
    },
  };
}
