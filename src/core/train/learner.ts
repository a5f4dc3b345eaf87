import { z } from "zod";
import type { DecisionEpisode } from "../policy/decision";
import type { LinearPolicy } from "../policy/linearPolicy";
import { LinearValue } from "../policy/value";
import { AdamState } from "../rl/adam";
import { Grpo, type GrpoConfig } from "../rl/grpo";
import { Ppo, type PpoConfig } from "../rl/ppo";
import type { UpdateStats } from "../rl/stats";
import type { RlUpdate } from "../rl/update";
import { base64ToFloat32, float32ToBase64 } from "../util/base64";
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

/**
 * GRPO or PPO behind one face, so that one iteration serves both (and real and synthetic environments); both are
 * the one update loop of rl/update.ts.
 */
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

/** `reference`: the frozen policy of GRPO's KL penalty, needed when klBeta > 0. */
export function grpoLearner(
  policy: LinearPolicy,
  config: Partial<GrpoConfig> = {},
  reference?: LinearPolicy,
): Learner {
  return learnerOf("grpo", new Grpo(policy, config, reference));
}

/** PPO's learner carries its critic, whose weights it saves and restores with the optimizer. */
export function ppoLearner(
  policy: LinearPolicy,
  config: Partial<PpoConfig> = {},
  value = new LinearValue(policy.dimension),
): Learner {
  return learnerOf("ppo", new Ppo(policy, value, config));
}

/** Either algorithm is one update loop; what a learner adds is its state, critic included. */
function learnerOf(algorithm: Learner["algorithm"], rl: RlUpdate): Learner {
  const critic = rl.value;
  return {
    algorithm,
    ...(critic ? { value: critic } : {}),
    update: (groups) => rl.update(groups),
    snapshot: () => ({
      algorithm,
      optimizer: rl.optimizer.snapshot(),
      rng: rl.rng.state32,
      ...(critic ? { value: float32ToBase64(critic.weights) } : {}),
    }),
    setLearningRate(learningRate) {
      rl.optimizer.learningRate = learningRate;
    },
    restore(state) {
      if (state.algorithm !== algorithm)
        throw new Error(`learner state was saved by ${state.algorithm}, this run trains with ${algorithm}`);
      // Everything is checked before anything changes (the optimizer checks its own).
      const weights = critic ? criticWeights(state, critic) : undefined;
      rl.optimizer.restore(state.optimizer);
      rl.rng.state32 = state.rng;
      if (critic && weights) critic.weights.set(weights);
    },
  };
}

function criticWeights(state: LearnerState, critic: LinearValue): Float32Array {
  if (state.value === undefined) throw new Error("PPO learner state has no critic weights");
  const weights = base64ToFloat32(state.value);
  if (weights.length !== critic.dimension)
    throw new Error(`PPO critic state has ${weights.length} weights, this critic has ${critic.dimension}`);
  return weights;
}
