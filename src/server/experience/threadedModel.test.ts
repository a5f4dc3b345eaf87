import { afterEach, describe, expect, it } from "vitest";
import { household } from "@/core/envs/household";
import { RetrievalExperienceModel } from "@/core/experience/retrieval/retrievalModel";
import type { ExperienceInput, ExperiencePrediction } from "@/core/experience/types";
import { offlineMemoryBuffer } from "@/core/train/testing";
import { ThreadedExperienceModel } from "./threadedModel";

let threaded: ThreadedExperienceModel | undefined;
afterEach(async () => {
  await threaded?.close();
  threaded = undefined;
});

/** The first steps of held-out tasks, each with an admissible action and its retrieved demonstrations. */
async function inputs(count: number): Promise<ExperienceInput[]> {
  const buffer = await offlineMemoryBuffer(household, 10);
  const out: ExperienceInput[] = [];
  for (let i = 0; i < count; i++) {
    const task = household.task("test", i);
    const state = await household.createEnvironment().reset(task);
    const action = state.actions?.[i % state.actions.length] ?? "look";
    const demonstrations = await buffer.similar(
      { domain: "household", state: state.text, action, instruction: task.instruction },
      8,
    );
    out.push({ task, history: [], state, action, demonstrations });
  }
  return out;
}

const withoutLatency = ({ latencyMs: _latency, ...rest }: ExperiencePrediction) => rest;

describe("the threaded experience model", () => {
  it("predicts exactly what the inline model does, with many predictions in flight on two threads", async () => {
    const batch = await inputs(24);
    const inline = new RetrievalExperienceModel({ reasoning: true });
    const expected = await Promise.all(batch.map((input) => inline.predict(input)));
    threaded = new ThreadedExperienceModel({ reasoning: true }, 2);
    const got = await Promise.all(batch.map((input) => threaded!.predict(input)));
    expect(got.map(withoutLatency)).toEqual(expected.map(withoutLatency));
    expect(new Set(got.map((p) => p.next.text)).size).toBeGreaterThan(1);
  }, 60_000);

  it("rejects a prediction that fails in its thread with the thread's error, and goes on serving others", async () => {
    threaded = new ThreadedExperienceModel({ reasoning: true }, 1);
    const [good] = await inputs(1);
    const broken = { ...good!, state: undefined } as unknown as ExperienceInput;
    await expect(threaded.predict(broken)).rejects.toThrow(/experience model thread: .*TypeError/s);
    const after = await threaded.predict(good!);
    expect(after.model).toBe("retrieval-exp-v1");
  }, 60_000);
});
