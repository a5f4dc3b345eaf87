import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ExperienceModel } from "../experience/types";
import { heldOutFidelity } from "./heldOutFidelity";
import { importedFromJsonl } from "./testing";
import { type TrustReport, trustReport } from "./trustReport";
import { MAX_HALLUCINATION, MIN_TOKEN_F1 } from "./verdict";

const SAMPLE = fs.readFileSync(path.join(process.cwd(), "samples", "web-admin.jsonl"), "utf8");
/** The verdict's sentences about the predicted states themselves. */
const STATE_FIDELITY = /what the experience model showed|share only .* of their words/;

describe("the trust report on imported logs (the web-admin sample)", () => {
  let real: TrustReport;
  let shuffled: TrustReport;
  beforeAll(async () => {
    const logs = await importedFromJsonl(SAMPLE);
    // The untrained policy's synthetic success reported for such a domain.
    real = await trustReport(logs.domain, logs.model, logs.buffer, logs.settings, {
      untrainedSyntheticSuccess: 0.72,
    });
    // Next states shuffled between steps: no experience model can predict them.
    const noise = await importedFromJsonl(SAMPLE, { shuffleSeed: "next states" });
    shuffled = await trustReport(noise.domain, noise.model, noise.buffer, noise.settings);
  });

  it("scores the capped held-out steps over every held-out task, and replays every held-out log", () => {
    expect(real.fidelity.transitions).toBe(300);
    expect(real.fidelity.tasks).toBe(22);
    expect(real.calibration.episodes).toBe(60);
    expect(real.calibration.base).toBe(0.75);
  });

  it("gives each logged policy its base rate of success", () => {
    expect(Object.keys(real.byPolicy).sort()).toEqual(["expert", "noisy-0.3", "noisy-0.7"]);
    expect(real.byPolicy.expert).toMatchObject({ episodes: 22, base: 1, logReward: 1 });
    expect(real.byPolicy["noisy-0.3"]).toMatchObject({ episodes: 28, base: 0.7857 });
    expect(real.byPolicy["noisy-0.7"]).toMatchObject({ episodes: 10, base: 0.1 });
  });

  it("finds the model faithful to the logged states, and an untrained policy's 72% synthetic success untrustworthy", () => {
    expect(real.fidelity.hallucinationRate).toBeLessThan(MAX_HALLUCINATION);
    expect(real.fidelity.tokenF1).toBeGreaterThan(MIN_TOKEN_F1);
    expect(real.verdict.reasons.filter((r) => STATE_FIDELITY.test(r))).toEqual([]);
    expect(real.verdict.trustworthy).toBe(false);
    expect(real.verdict.reasons).toContainEqual(
      expect.stringMatching(
        /untrained policy succeeds 72% .* 62 points above the 10% the logs show for noisy-0.7/,
      ),
    );
  });

  it("finds a model that cannot predict the next states untrustworthy, saying so", () => {
    expect(shuffled.fidelity.hallucinationRate).toBeGreaterThan(3 * real.fidelity.hallucinationRate);
    expect(shuffled.fidelity.tokenF1).toBeLessThan(real.fidelity.tokenF1 - 0.2);
    expect(shuffled.fidelity.exactMatch).toBeLessThan(real.fidelity.exactMatch);
    expect(shuffled.verdict.trustworthy).toBe(false);
    expect(shuffled.verdict.reasons.filter((r) => STATE_FIDELITY.test(r))).toHaveLength(2);
  });

  it("is plain JSON", () => {
    expect(JSON.parse(JSON.stringify(real))).toEqual(real);
  });
});

describe("held-out fidelity", () => {
  it("never shows the model a held-out task's own transitions, even from a buffer that holds them", async () => {
    const logs = await importedFromJsonl(SAMPLE);
    const heldOut = new Set(logs.domain.tasks("test", 100).map((t) => t.id));
    const heldOutSteps = logs.domain
      .logsOf("test")
      .flatMap((l) => l.steps.map((s, i) => ({ ...s, id: `held-out-${l.task.id}-${i}` })));
    await logs.buffer.add(heldOutSteps);
    const first = heldOutSteps[0]!;
    const unfiltered = await logs.buffer.similar(
      {
        domain: logs.domain.name,
        state: first.state.text,
        action: first.action,
        instruction: first.instruction,
      },
      8,
    );
    expect(unfiltered.some((d) => heldOut.has(d.taskId ?? ""))).toBe(true);
    const shown: string[] = [];
    const watching: ExperienceModel = {
      name: "watching",
      predict: (input) => {
        for (const d of input.demonstrations) shown.push(d.taskId ?? "");
        return logs.model.predict(input);
      },
    };
    await heldOutFidelity(logs.domain, watching, logs.buffer, logs.settings, { steps: 40 });
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.filter((id) => heldOut.has(id))).toEqual([]);
  });
});
