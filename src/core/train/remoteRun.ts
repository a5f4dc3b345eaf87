import type { RemoteEnvSpec } from "../envs/remote/spec";
import type { RunConfig } from "./config";
import { VALIDATION_OFFSET } from "./heldOut";
import { clones } from "./methods";

/**
 * Why a run config cannot train in a remote domain (a real environment outside the app), or null. The launch
 * check and the run's dependencies both ask it. A remote environment has no scripted expert and only the tasks
 * its registration numbers.
 */
export function remoteRunProblem(
  config: RunConfig,
  spec: Pick<RemoteEnvSpec, "name" | "tasks">,
): string | null {
  if (clones(config))
    return `method ${config.method}${config.warmStart === "bc" ? " with warmStart bc" : ""} clones a scripted expert, and remote domain "${spec.name}" has none: choose a method that does not clone, or warmStart "none"`;
  // The openai generator writes goals that a built-in domain's schema checks; a remote task is only its text.
  if (config.curriculum.taskGeneration && config.backends.taskGenerator !== "embedded")
    return `remote domain "${spec.name}": task generation uses the embedded generator (recombined instructions, played in the synthetic environment); set backends.taskGenerator to "embedded" or curriculum.taskGeneration to false`;
  const { train, test } = spec.tasks;
  if (config.seedTasks > train.count)
    return `remote domain "${spec.name}" registers ${train.count} train tasks; the run asks for ${config.seedTasks} seed tasks`;
  if (config.evaluation.tasks === "test" && config.evaluation.episodes > test.count)
    return `remote domain "${spec.name}" registers ${test.count} test tasks; the run evaluates on ${config.evaluation.episodes}`;
  if (
    config.evaluation.tasks === "validation" &&
    VALIDATION_OFFSET + config.evaluation.episodes > train.count
  )
    return `remote domain "${spec.name}" registers ${train.count} train tasks; validation tasks start at train task ${VALIDATION_OFFSET}: evaluate on "test", or register more train tasks`;
  return null;
}
