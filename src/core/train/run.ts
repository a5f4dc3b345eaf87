import { saveCheckpoint } from "../policy/checkpoint";
import type { RunConfig } from "./config";
import { trainedWith } from "./methods";
import { trainPhases } from "./phases";
import { UNTRAINED_EVALUATION } from "./proxyTrust";
import { checkRunDeps } from "./runChecks";
import { runContext } from "./runContext";
import type { RunDeps, RunResult } from "./runTypes";

export type { IterationReport, RunDeps, RunResult, RunState } from "./runTypes";

/**
 * A whole run of one method, as the methods table (methods.ts) describes it, read top to bottom:
 * 1. the run is checked against what it was given (runChecks.ts);
 * 2. the policy: blank, behaviour-cloned when the method or its warm start asks, or the resumed run's
 *    (runContext.ts, which also holds the held-out evaluation and the synthetic environment);
 * 3. the untrained figure;
 * 4. each phase's iterations until the phase's end, evaluated every `evaluation.interval` (phases.ts);
 * 5. the final figures: real success (an imported domain's proxies), the same policy in the synthetic environment
 *    (the sim-to-real gap), and, for an imported copy of a built-in domain, that domain's real test tasks.
 */
export async function runTraining(config: RunConfig, deps: RunDeps): Promise<RunResult> {
  const started = performance.now();
  checkRunDeps(config, deps);
  const ctx = await runContext(config, deps);
  // The untrained figure is the blank policy's, before any cloning, for fresh and resumed runs alike.
  const untrained = await ctx.evaluate(UNTRAINED_EVALUATION, ctx.blankPolicy());
  const { counters, evaluated } = await trainPhases(config, deps, ctx);
  // The same policy evaluated twice with other samples would show two "final" figures for one run.
  const last = evaluated?.iterations === counters.iterations ? evaluated : undefined;
  const final = last?.result ?? (await ctx.evaluate("eval:final"));
  const finalSimulated = last ? last.simulated : await ctx.simulate("eval:final");
  const groundTruth = await ctx.groundTruth();
  return {
    method: config.method,
    domain: config.domain,
    algorithm: trainedWith(config),
    seed: config.seed,
    untrained,
    final,
    ...(finalSimulated ? { finalSimulated } : {}),
    ...(groundTruth ? { groundTruth } : {}),
    realTransitions: counters.realTransitions,
    syntheticTransitions: counters.syntheticTransitions,
    iterations: counters.iterations,
    seconds: (performance.now() - started) / 1000,
    checkpoint: saveCheckpoint(ctx.policy),
  };
}
