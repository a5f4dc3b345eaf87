import { isImportedDomain, type TrainingDomain } from "../envs/trainingDomain";
import type { LinearPolicy } from "../policy/linearPolicy";
import { replayDecisions } from "../policy/replayDecisions";
import { BehaviourCloning } from "../rl/bc";
import { rollout } from "../rollout";
import type { RunConfig } from "./config";

/**
 * Behaviour cloning on `demonstrations` expert episodes: the expert's, played on the first seed tasks (cycling
 * through them); in an imported domain, its successful train logs (cycling through them).
 */
export async function behaviourClone(
  config: RunConfig,
  domain: TrainingDomain,
  policy: LinearPolicy,
): Promise<void> {
  const decisions = [];
  if (isImportedDomain(domain)) {
    const logs = domain.successfulLogs("train");
    if (logs.length === 0)
      throw new Error(
        `imported domain "${domain.name}" has no successful train log to clone: import some, or set warmStart to none`,
      );
    for (let i = 0; i < config.demonstrations; i++) {
      const log = logs[i % logs.length]!;
      decisions.push(...replayDecisions(policy, log.task, log.steps));
    }
  } else {
    for (let i = 0; i < config.demonstrations; i++) {
      const task = domain.task("train", i % config.seedTasks);
      const episode = await rollout(domain.createEnvironment(), domain.expert(), task, domain.maxSteps);
      decisions.push(...replayDecisions(policy, task, episode.steps));
    }
  }
  new BehaviourCloning(policy, { ...config.bc, seed: config.seed }).fit(decisions);
}
