import { parseArgs } from "node:util";
import { REAL_DOMAIN_NAMES } from "@/core/envs/names";
import { getRealDomain } from "@/core/envs/registry";
import { stepOf } from "@/core/step";

/**
 * Raw speed of the real environments: steps per second of the environment alone (actions come from a noisy
 * expert, whose time is measured separately and excluded), so that an environment is never a benchmark's
 * bottleneck.
 */
export async function envSpeedBench(args: string[]) {
  const { values } = parseArgs({ args, options: { episodes: { type: "string", default: "500" } } });
  const episodes = Number(values.episodes);
  const results: Record<string, unknown> = {};
  for (const name of REAL_DOMAIN_NAMES) {
    const domain = getRealDomain(name);
    const policy = domain.noisy(7, 0.3);
    let steps = 0;
    let envMs = 0;
    let policyMs = 0;
    let resetMs = 0;
    const started = performance.now();
    for (let i = 0; i < episodes; i++) {
      const task = domain.task("train", 10_000 + i);
      const env = domain.createEnvironment();
      let t0 = performance.now();
      let observation = await env.reset(task);
      resetMs += performance.now() - t0;
      const history = [];
      for (let s = 0; s < domain.maxSteps; s++) {
        t0 = performance.now();
        const { action } = await policy.act(task, history, observation);
        policyMs += performance.now() - t0;
        t0 = performance.now();
        const result = await env.step(action);
        envMs += performance.now() - t0;
        steps++;
        history.push(stepOf(observation, action, result));
        observation = result.observation;
        if (result.done) break;
      }
    }
    const wall = (performance.now() - started) / 1000;
    results[name] = {
      episodes,
      steps,
      envStepsPerSecond: Math.round(steps / (envMs / 1000)),
      endToEndStepsPerSecond: Math.round(steps / wall),
      meanResetMs: Number((resetMs / episodes).toFixed(4)),
      policyShare: Number((policyMs / (wall * 1000)).toFixed(3)),
    };
    process.stderr.write(`${name}: ${JSON.stringify(results[name])}\n`);
  }
  process.stdout.write(`${JSON.stringify({ bench: "envs", ...results })}\n`);
}
