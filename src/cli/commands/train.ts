import fs from "node:fs";
import type { Command } from "commander";
import { parseRunConfig } from "@/core/train/config";
import type { EvaluationResult } from "@/core/train/evaluate";
import { runProgress } from "@/core/train/methods";
import { applyOverride } from "@/core/train/overrides";
import { runTraining } from "@/core/train/run";
import { llmReport } from "@/server/train/llmReport";
import { runDeps } from "@/server/train/runDeps";
import { database, printJson } from "../args";
import { progressBar } from "../progress";

function readConfig(file: string, overrides: string[]) {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`cannot read run config ${file}: ${(error as Error).message}`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw new Error(`run config ${file} is not a JSON object`);
  for (const assignment of overrides) applyOverride(json as Record<string, unknown>, assignment);
  return parseRunConfig(
    json,
    overrides.length > 0 ? `config ${file} with ${overrides.join(" ")}` : `config ${file}`,
  );
}

/** Written beside and renamed into place: a crash mid-write leaves the old file or none, never half a checkpoint. */
function writeWhole(file: string, text: string): void {
  const partial = `${file}.partial`;
  try {
    fs.writeFileSync(partial, text);
    fs.renameSync(partial, file);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw new Error(`cannot write the checkpoint to ${file}: ${(error as Error).message}`);
  }
}

function proxyFigures(e: EvaluationResult) {
  return {
    syntheticSuccess: e.successRate,
    syntheticMeanReward: e.meanReward,
    ...(e.proxy?.confidence !== undefined ? { confidence: e.proxy.confidence } : {}),
    ...(e.proxy?.actionAgreement !== undefined ? { actionAgreement: e.proxy.actionAgreement } : {}),
    agreementSteps: e.proxy?.agreementSteps ?? 0,
    // The verdict on these proxies from the held-out logs (core/trust), with its reasons.
    ...(e.proxy?.trust
      ? { trust: { trustworthy: e.proxy.trust.verdict.trustworthy, reasons: e.proxy.trust.verdict.reasons } }
      : {}),
    ...(e.proxy?.judged !== undefined
      ? {
          judgeSuccess: e.proxy.judgeSuccess ?? null,
          judged: e.proxy.judged,
          judgeFailures: e.proxy.judgeFailures,
        }
      : {}),
  };
}

export function registerTrainCommands(program: Command) {
  program
    .command("train")
    .description("train a policy with DreamGym, DreamGym-S2R or a comparison method; ends with one JSON line")
    .requiredOption("--config <file>", "run config (JSON), e.g. configs/quick/shop-dreamgym-grpo.json")
    .option(
      "--set <key=value>",
      "override one setting by its dotted path (repeatable), e.g. --set grpo.klBeta=0.04 --set seed=3",
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option(
      "--checkpoint <file>",
      "write the final policy (its weights, as JSON) to this file, e.g. to play it again or study its failures",
    )
    .action(async (options: { config: string; set: string[]; checkpoint?: string }) => {
      const config = readConfig(options.config, options.set);
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
              100 *
                runProgress(config, {
                  iterations: r.iteration,
                  realTransitions: r.realTransitions,
                  syntheticTransitions: r.syntheticTransitions,
                }),
            ),
          );
          if (r.evaluation)
            last = `it ${r.iteration}: ${r.evaluation.proxy ? "synthetic (proxy)" : "real"} test success ${(r.evaluation.successRate * 100).toFixed(0)}%`;
        },
      });
      await deps.close();
      if (options.checkpoint) writeWhole(options.checkpoint, `${JSON.stringify(result.checkpoint)}\n`);
      bar.update(total);
      bar.stop();
      if (last) process.stderr.write(`${last}\n`);
      printJson({
        config: options.config,
        ...(options.set.length > 0 ? { overrides: options.set } : {}),
        method: result.method,
        domain: result.domain,
        algorithm: result.algorithm,
        seed: result.seed,
        // An imported domain has no real environment: its figures are proxies, and are named so.
        ...(result.final.proxy
          ? {
              evaluatedBy:
                "proxies: no real environment (synthetic success, model confidence, action agreement)",
              untrainedProxy: proxyFigures(result.untrained),
              finalProxy: proxyFigures(result.final),
              // The check of the proxies, when the imported domain is a copy of a built-in one.
              ...(result.groundTruth
                ? {
                    groundTruthSuccess: result.groundTruth.successRate,
                    ...(result.groundTruth.webshopSuccessRate !== undefined
                      ? { groundTruthWebshopSuccess: result.groundTruth.webshopSuccessRate }
                      : {}),
                  }
                : {}),
            }
          : {
              // Test tasks, or validation tasks when the run chooses settings (evaluation.tasks).
              evaluatedOn: config.evaluation.tasks,
              untrainedSuccess: result.untrained.successRate,
              finalSuccess: result.final.successRate,
            }),
        // The same policy on the same test tasks in the synthetic environment (methods with a synthetic phase).
        ...(result.finalSimulated ? { finalSimSuccess: result.finalSimulated.successRate } : {}),
        // The shop's success under WebShop's own rule (fuzzy options), beside the strict figure above.
        ...(result.final.webshopSuccessRate !== undefined
          ? { finalWebshopSuccess: result.final.webshopSuccessRate }
          : {}),
        ...(result.final.proxy ? {} : { finalMeanReward: result.final.meanReward }),
        testEpisodes: result.final.episodes,
        realTransitions: result.realTransitions,
        syntheticTransitions: result.syntheticTransitions,
        iterations: result.iterations,
        seconds: Number(result.seconds.toFixed(1)),
        transitionsPerSecond: Math.round(
          (result.realTransitions + result.syntheticTransitions) / Math.max(result.seconds, 1e-3),
        ),
        ...(deps.llm ? { llm: llmReport(deps.llm.stats(), result.syntheticTransitions) } : {}),
        ...(options.checkpoint ? { checkpoint: options.checkpoint } : {}),
      });
    });
}
