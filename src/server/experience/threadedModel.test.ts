import { afterEach, describe, expect, it } from "vitest";
import { household } from "@/core/envs/household";
import { shop } from "@/core/envs/shop";
import { OfflineMemory } from "@/core/experience/retrieval/offlineMemory";
import { RetrievalExperienceModel } from "@/core/experience/retrieval/retrievalModel";
import { unseenEntry } from "@/core/experience/testing";
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

  it("learns real transitions on every thread, in order with the predictions (S2R's learnFromReal)", async () => {
    const buffer = await offlineMemoryBuffer(shop, 20);
    // An array: every memory below learns the same offline logs (a generator would be spent by the first).
    const transitions = [...buffer.transitions()];
    const memory = () => OfflineMemory.fromTransitions(transitions);
    const { opened, input, steps } = await unseenEntry(memory(), buffer);
    const inline = new RetrievalExperienceModel({ reasoning: true }, memory());
    threaded = new ThreadedExperienceModel({ reasoning: true }, 2, memory());
    const before = await Promise.all([threaded.predict(input), threaded.predict(input)]);
    threaded.learn(steps);
    inline.learn(steps);
    const after = await Promise.all([threaded.predict(input), threaded.predict(input)]);
    expect(before.map((p) => p.next.text)).not.toContain(opened.next.text);
    // Both threads answer as the inline model that learnt the same.
    const expected = withoutLatency(await inline.predict(input));
    expect(after.map(withoutLatency)).toEqual([expected, expected]);
    expect(expected.next.text).toBe(opened.next.text);
  }, 60_000);
});
