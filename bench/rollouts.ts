/**
 * Rollouts at the speed of the endpoint: one DreamGym iteration (shop, 4 tasks x 4 rollouts, 15 steps each) with
 * the openai experience model against a local OpenAI-protocol server that answers every request after 200 ms,
 * at several in-flight limits. Prints synthetic transitions per second and the requests seen in flight at once.
 *   npm run bench -- rollouts [--latency-ms 200] [--limits 1,8,16]
 */
import fs from "node:fs";
import path from "node:path";
import { shop } from "@/core/envs/shop";
import { OpenAIExperienceModel } from "@/core/experience/openaiModel";
import { DEFAULT_EXPERIENCE_SETTINGS } from "@/core/experience/types";
import { createLlmClient } from "@/core/llm";
import { HashNgramEmbedder } from "@/core/replay/hashEmbedder";
import { MemoryReplayBuffer } from "@/core/replay/memoryBuffer";
import { parseRunConfig } from "@/core/train/config";
import { runTraining } from "@/core/train/run";
import { okJson, startFakeOpenAI } from "../tests/helpers/fakeOpenAIServer";

function option(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(name);
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
}

export async function rolloutsBench(args: string[]): Promise<void> {
  const latencyMs = Number(option(args, "--latency-ms", "200"));
  const limits = option(args, "--limits", "1,8,16").split(",").map(Number);
  let inFlight = 0;
  let maxInFlight = 0;
  const server = await startFakeOpenAI(async () => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((resolve) => setTimeout(resolve, latencyMs));
    inFlight--;
    return okJson({
      reasoning: "The page does not change: the demonstrations show no effect of this action here.",
      next_state: "You are on the search page. [Search]",
      reward: 0,
      done: false,
      success: false,
      valid: true,
    });
  });
  const rows = [];
  try {
    for (const limit of limits) {
      maxInFlight = 0;
      const llm = createLlmClient({
        baseURL: server.url,
        model: "bench-exp",
        timeoutMs: 30_000,
        maxRetries: 0,
        concurrency: limit,
      });
      const config = parseRunConfig({
        method: "dreamgym",
        domain: "shop",
        iterations: 1,
        tasksPerBatch: 4,
        groupSize: 4,
        evaluation: { interval: 1_000, episodes: 1 },
        curriculum: { taskGeneration: false },
        experience: { k: 0 },
        rollouts: { concurrency: limit },
      });
      const started = performance.now();
      const result = await runTraining(config, {
        domain: shop,
        buffer: new MemoryReplayBuffer(new HashNgramEmbedder()),
        model: new OpenAIExperienceModel(llm, { ...DEFAULT_EXPERIENCE_SETTINGS, k: 0 }),
      });
      const seconds = (performance.now() - started) / 1000;
      const row = {
        limit,
        transitions: result.syntheticTransitions,
        seconds: Number(seconds.toFixed(1)),
        transitionsPerSecond: Number((result.syntheticTransitions / seconds).toFixed(1)),
        maxRequestsInFlight: maxInFlight,
      };
      rows.push(row);
      process.stderr.write(
        `limit ${limit}: ${row.transitionsPerSecond} transitions/s, ${maxInFlight} in flight\n`,
      );
    }
  } finally {
    await server.close();
  }
  const out = path.join("bench", "results", "rollouts.json");
  fs.writeFileSync(out, `${JSON.stringify({ latencyMs, rows }, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify({ bench: "rollouts", latencyMs, rows })}\n`);
}
