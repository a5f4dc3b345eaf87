import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { demonstrationConfidence } from "../experience/confidence";
import type { Observation, Step, Task } from "../types";
import { Rng } from "../util/random";
import { heldOutLogs, trainOnly } from "./heldOutLogs";
import { importedFromJsonl } from "./testing";

const read = (file: string) => fs.readFileSync(path.join(process.cwd(), "samples", file), "utf8");

/**
 * Where the logs say nothing, the experience model should be unsure. On the web-admin sample's held-out steps:
 * its confidence in the logged action, in an admissible action that no train log took in that very state, and in
 * the logged action on a page of another site (the web-navigation sample's). Means over the same steps.
 */
describe("the experience model's confidence off the logs (web-admin sample)", () => {
  it("falls on actions the logs never took in the state, and further on states the logs never show", async () => {
    const logs = await importedFromJsonl(read("web-admin.jsonl"));
    const foreign = read("web-navigation.jsonl")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .flatMap((l) => (JSON.parse(l) as { steps: { state: string }[] }).steps.map((s) => s.state));
    const held = heldOutLogs(logs.domain);
    const buffer = trainOnly(logs.buffer, [...new Set(held.map((l) => l.task.id))]);
    const seen = new Set(logs.domain.trainSteps().map((s) => `${s.state.text}\u0000${s.action}`));
    const confidence = async (task: Task, history: Step[], state: Observation, action: string) => {
      const demonstrations = await buffer.similar(
        { domain: logs.domain.name, state: state.text, action, instruction: task.instruction },
        logs.settings.k,
        { sources: ["offline"] },
      );
      const p = await logs.model.predict({ task, history, state, action, demonstrations });
      return (p.confidence ?? demonstrationConfidence(action, demonstrations)).value;
    };
    const rng = new Rng("unsure");
    const sums = { logged: 0, untaken: 0, foreign: 0 };
    let n = 0;
    for (const log of held.slice(0, 30))
      for (const [t, step] of log.steps.entries()) {
        const untaken = (step.state.actions ?? []).filter(
          (a) => a !== step.action && !seen.has(`${step.state.text}\u0000${a}`),
        );
        if (untaken.length === 0) continue;
        const history = log.steps.slice(0, t).slice(-logs.settings.historyWindow);
        sums.logged += await confidence(log.task, history, step.state, step.action);
        sums.untaken += await confidence(log.task, history, step.state, rng.pick(untaken));
        sums.foreign += await confidence(log.task, history, { text: rng.pick(foreign) }, step.action);
        n++;
      }
    expect(n).toBeGreaterThan(50);
    const mean = { logged: sums.logged / n, untaken: sums.untaken / n, foreign: sums.foreign / n };
    expect(mean.logged).toBeGreaterThan(0.9);
    expect(mean.untaken).toBeLessThan(mean.logged - 0.15);
    expect(mean.foreign).toBeLessThan(mean.untaken);
  }, 60_000);
});
