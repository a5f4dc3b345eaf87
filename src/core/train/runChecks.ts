import { isImportedDomain } from "../envs/trainingDomain";
import type { RunConfig } from "./config";
import { importedRunProblem } from "./importedRun";
import { METHODS } from "./methods";
import type { RunDeps } from "./runTypes";

/** Refuses a run that was not given what its config asks for, before anything is played. */
export function checkRunDeps(config: RunConfig, deps: RunDeps): void {
  const { domain } = deps;
  const imported = isImportedDomain(domain);
  const groundTruth = config.evaluation.groundTruth;
  if (groundTruth !== undefined && (!imported || deps.groundTruth?.name !== groundTruth))
    throw new Error(
      imported
        ? `evaluation.groundTruth "${groundTruth}": the run was not given that built-in domain`
        : `evaluation.groundTruth is for an imported copy of a built-in domain; "${domain.name}" is built in and evaluated in its real environment already`,
    );
  const problem = imported ? importedRunProblem(config) : null;
  if (problem) throw new Error(problem);
  if (config.evaluation.judge && !deps.outcomeJudge)
    throw new Error("evaluation.judge is on, but the run was given no outcome judge");
  if (METHODS[config.method].phases.length > 0 && config.curriculum.taskGeneration && !deps.generator)
    throw new Error(`run config asks for task generation, but no task generator was given`);
}
