import { describe, expect, it } from "vitest";
import { ImportedDomain, type LoggedEpisode } from "../envs/imported/importedDomain";
import type { ExperienceInput, ExperienceModel, ExperiencePrediction } from "../experience/types";
import type { Step, Task } from "../types";
import { calibrationOf, outcomeCalibration, type Replayed } from "./calibration";

/** A model that chains its own states, ends the episode on "end-…", and calls "end-win" a success. */
class ScriptedModel implements ExperienceModel {
  readonly name = "scripted";
  readonly states: string[] = [];
  async predict(input: ExperienceInput): Promise<ExperiencePrediction> {
    this.states.push(input.state.text);
    const done = input.action.startsWith("end-");
    const success = input.action === "end-win";
    return {
      reasoning: "",
      next: { text: `${input.state.text}>${input.action}` },
      reward: success ? 1 : 0,
      done,
      success,
      valid: true,
      model: this.name,
      latencyMs: 0,
    };
  }
}

const task = (id: string, split: "train" | "test"): Task => ({
  id,
  domain: "d",
  instruction: `do ${id}`,
  split,
  origin: "imported",
});
const logged = (taskId: string, actions: string[], success: boolean, policy?: string): LoggedEpisode => ({
  taskId,
  success,
  ...(policy ? { policy } : {}),
  steps: actions.map(
    (action, t): Step => ({
      state: { text: `${taskId} logged ${t}` },
      action,
      next: { text: `${taskId} logged ${t + 1}` },
      reward: success && t === actions.length - 1 ? 1 : 0,
      done: t === actions.length - 1,
      success: success && t === actions.length - 1,
      valid: true,
    }),
  ),
});

describe("outcome calibration", () => {
  const train = ["t1", "t2", "t3", "t4"].map((id) => task(id, "train"));
  const test = ["h1", "h2", "h3"].map((id) => task(id, "test"));
  const domain = new ImportedDomain({
    name: "d",
    tasks: [...train, ...test],
    episodes: [
      ...train.map((t) => logged(t.id, ["a", "end-win"], true)),
      logged("h1", ["a", "b", "end-win"], true, "expert"),
      // The model ends it at once, and never sees the logged action after.
      logged("h2", ["end-lose", "b"], false, "noisy"),
      // Its actions run out before the model ends it.
      logged("h3", ["a", "b"], true),
      // A failure the model calls a success.
      logged("h3", ["end-win"], false, "noisy"),
    ],
  });

  it("replays each held-out log's actions on the model's own states until the model ends it", async () => {
    const model = new ScriptedModel();
    const { overall, byPolicy } = await outcomeCalibration(domain, model, undefined, {
      k: 0,
      historyWindow: 2,
      reasoning: false,
    });
    expect(model.states.slice(0, 3)).toEqual(["h1 logged 0", "h1 logged 0>a", "h1 logged 0>a>b"]);
    expect(overall).toEqual({
      episodes: 4,
      base: 0.5,
      predicted: 0.5,
      precision: 0.5,
      recall: 0.5,
      falseSuccess: 0.5,
      reward: 0.5,
      logReward: 0.5,
      steps: 3 + 1 + 2 + 1,
      unfinished: 0.25,
    });
    expect(Object.keys(byPolicy)).toEqual(["expert", "noisy", "unlabelled"]);
    expect(byPolicy.noisy).toMatchObject({
      episodes: 2,
      base: 0,
      predicted: 0.5,
      precision: 0,
      falseSuccess: 0.5,
    });
    expect(byPolicy.expert).toMatchObject({ base: 1, recall: 1, falseSuccess: null });
  });

  it("has no precision without a predicted success, and no false-success rate without a logged failure", () => {
    const r = (logged: boolean, predicted: boolean): Replayed => ({
      policy: "p",
      logged,
      logReward: logged ? 1 : 0,
      predicted,
      reward: predicted ? 1 : 0,
      steps: 1,
      finished: true,
    });
    expect(calibrationOf([r(true, false), r(true, false)]).overall).toMatchObject({
      precision: null,
      recall: 0,
      falseSuccess: null,
    });
  });
});
