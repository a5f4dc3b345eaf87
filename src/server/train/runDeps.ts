import { embeddedTaskGenerator } from "@/core/curriculum/embedded";
import type { TaskGenerator } from "@/core/curriculum/generator";
import { OpenAITaskGenerator } from "@/core/curriculum/openaiGenerator";
import { getRealDomain } from "@/core/envs/registry";
import { HashNgramEmbedder } from "@/core/replay/hashEmbedder";
import { MemoryReplayBuffer } from "@/core/replay/memoryBuffer";
import type { RunConfig } from "@/core/train/config";
import type { RunDeps } from "@/core/train/run";
import { experienceSettings } from "@/core/train/run";
import { config as appConfig } from "@/env";
import type { Db } from "../db";
import { createExperienceModel, createLlm } from "../experience/backends";
import { STEP_SELECT, stepToTransition } from "../replay/sync";

/**
 * A run's replay buffer: the domain's offline transitions from the database, in memory. Exact search over a few
 * thousand to tens of thousands of transitions takes well under a millisecond in process, against ~10 ms a
 * LanceDB query (see the retrieval bench), and a run makes hundreds of thousands of them.
 */
export async function offlineBuffer(db: Db, domain: string): Promise<MemoryReplayBuffer> {
  const steps = await db.step.findMany({
    where: { trajectory: { domain, source: "offline" } },
    select: STEP_SELECT,
  });
  if (steps.length === 0) {
    throw new Error(
      `no offline transitions for domain "${domain}": run \`npm run cli -- seed\` or \`npm run cli -- collect --domain ${domain} …\` first`,
    );
  }
  const transitions = steps.map(stepToTransition);
  const buffer = new MemoryReplayBuffer(new HashNgramEmbedder());
  await buffer.add(transitions);
  return buffer;
}

export function taskGenerator(config: RunConfig): TaskGenerator {
  if (config.backends.taskGenerator === "embedded") return embeddedTaskGenerator(config.domain);
  return new OpenAITaskGenerator(createLlm(appConfig(), appConfig().openai.models.taskGenerator));
}

/** Everything a run needs from the outside world, built from its config. */
export async function runDeps(db: Db, config: RunConfig): Promise<Omit<RunDeps, "onIteration" | "signal">> {
  return {
    domain: getRealDomain(config.domain),
    buffer: await offlineBuffer(db, config.domain),
    model: createExperienceModel(appConfig(), experienceSettings(config), config.backends.experience),
    generator: taskGenerator(config),
  };
}
