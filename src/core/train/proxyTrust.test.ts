import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { blindTaskGenerator, trainInstructions } from "../curriculum/blindVariations";
import { importedFromJsonl } from "../trust/testing";
import { parseRunConfig } from "./config";
import { runTraining } from "./run";

const SAMPLE = fs.readFileSync(path.join(process.cwd(), "samples", "web-admin.jsonl"), "utf8");

it("a run in an imported domain reports, beside its proxies, how far they can be trusted, and says why not", async () => {
  const { domain, buffer, model } = await importedFromJsonl(SAMPLE);
  const config = parseRunConfig({
    method: "dreamgym",
    domain: domain.name,
    iterations: 2,
    tasksPerBatch: 2,
    groupSize: 2,
    seedTasks: 8,
    evaluation: { interval: 2, episodes: 6 },
  });
  const evaluations: { iteration: number; trust: unknown }[] = [];
  const result = await runTraining(config, {
    domain,
    buffer,
    model,
    generator: blindTaskGenerator(domain.name, trainInstructions(domain)),
    onIteration: async (report) => {
      if (report.evaluation)
        evaluations.push({ iteration: report.iteration, trust: report.evaluation.proxy?.trust });
    },
  });
  for (const evaluation of [result.untrained, result.final]) {
    const trust = evaluation.proxy?.trust;
    expect(trust?.fidelity.transitions).toBeGreaterThan(0);
    expect(trust?.calibration.episodes).toBeGreaterThan(0);
    expect(Object.keys(trust?.byPolicy ?? {})).toContain("expert");
    expect(trust?.verdict.trustworthy).toBe(trust?.verdict.reasons.length === 0);
  }
  // The model is measured once; each verdict weighs its own evaluation's synthetic success.
  expect(result.final.proxy?.trust?.fidelity).toEqual(result.untrained.proxy?.trust?.fidelity);
  expect(evaluations.length).toBeGreaterThan(0);
  expect(evaluations.every((e) => e.trust !== undefined)).toBe(true);
  // Plain JSON: it is stored in the run's metrics as it is.
  expect(JSON.parse(JSON.stringify(result.final.proxy?.trust))).toEqual(result.final.proxy?.trust);
});
