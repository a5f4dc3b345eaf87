import fs from "node:fs";
import type { Command } from "commander";
import { parseRunConfig } from "@/core/train/config";
import { runProgress } from "@/core/train/methods";
import { runTraining } from "@/core/train/run";
import { runDeps } from "@/server/train/runDeps";
import { database, printJson } from "../args";
import { progressBar } from "../progress";

function readConfig(file: string) {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`cannot read run config ${file}: ${(error as Error).message}`);
  }
  return parseRunConfig(json, `config ${file}`);
}

export function registerTrainCommands(program: Command) {
  program
    .command("train")
    .description("train a policy with DreamGym, DreamGym-S2R or a comparison method; ends with one JSON line")
    .requiredOption("--config <file>", "run config (JSON), e.g. configs/shop-dreamgym-grpo-quick.json")
    .action(async (options: { config: string }) => {
      const config = readConfig(options.config);
      const db = await database();
      const deps = await runDeps(db, config);
      // Percent, as the UI shows it: a budget-bound phase has no iteration count to show in advance.
      const total = 100;
      const bar = progressBar(`train ${config.domain}/${config.method}/${config.algorithm}`, total);
      let last = "";
      const result = await runTraining(config, {
        ...deps,
        onIteration: (r) => {
          bar.update(
            Math.round(
              100 * runProgress(config, { iterations: r.iteration, realTransitions: r.realTransitions }),
            ),
          );
          if (r.evaluation)
            last = `it ${r.iteration}: real test success ${(r.evaluation.successRate * 100).toFixed(0)}%`;
        },
      });
      bar.update(total);
      bar.stop();
      if (last) process.stderr.write(`${last}\n`);
      printJson({
        config: options.config,
        method: result.method,
        domain: result.domain,
        algorithm: result.algorithm,
        seed: result.seed,
        untrainedSuccess: result.untrained.successRate,
        finalSuccess: result.final.successRate,
        finalMeanReward: result.final.meanReward,
        testEpisodes: result.final.episodes,
        realTransitions: result.realTransitions,
        syntheticTransitions: result.syntheticTransitions,
        iterations: result.iterations,
        seconds: Number(result.seconds.toFixed(1)),
      });
    });
}
