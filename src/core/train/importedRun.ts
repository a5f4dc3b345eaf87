import { oracleOn } from "../experience/oracle";
import type { RunConfig } from "./config";
import { hasPhase } from "./methods";

/**
 * Why a run config cannot train in an imported domain (one with logs and no environment), or null. The one
 * place these rules live: the launch check, the run's dependencies and the runner all ask it.
 */
export function importedRunProblem(config: RunConfig): string | null {
  if (hasPhase(config.method, "real"))
    return `method ${config.method} trains in a real environment, and imported domain "${config.domain}" has none (only its logs): use a method with a synthetic phase only, e.g. dreamgym`;
  if (oracleOn(config.experimental.oracle))
    return `experimental.oracle puts the real environment in place of the model, and imported domain "${config.domain}" has none: turn it off`;
  if (config.evaluation.tasks === "validation")
    return `imported domain "${config.domain}" is evaluated on its held-out logs; validation tasks are train tasks of a built-in domain: set evaluation.tasks to "test"`;
  // The openai generator writes goals that a built-in domain's schema checks; an imported task has only text.
  if (config.curriculum.taskGeneration && config.backends.taskGenerator !== "embedded")
    return `imported domain "${config.domain}": task generation uses the embedded generator (recombined instructions); set backends.taskGenerator to "embedded" or curriculum.taskGeneration to false`;
  return null;
}
