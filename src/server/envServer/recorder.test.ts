import { describe, expect, it } from "vitest";
import type { StepRow } from "../trajectories/insertSteps";
import { EpisodeRecorder } from "./recorder";
import type { RecordWriter, Write } from "./recordWrites";

/** A writer that stores what it is given, and fails while `fault` says so (or for one step it refuses). */
function flakyWriter(state: { fault: Error | null; refuse?: string }) {
  const stored: string[] = [];
  const writer: RecordWriter = {
    async write(batch: readonly Write[]) {
      if (state.fault) throw state.fault;
      const refused = batch.find(
        (w) => w.kind === "step" && state.refuse !== undefined && w.row.id === state.refuse,
      );
      if (refused) throw new Error("FOREIGN KEY constraint failed");
      for (const w of batch) if (w.kind === "step") stored.push(String(w.row.id));
    },
    refreshFigures: async () => {},
    close: async () => {},
  };
  return { writer, stored };
}

const step = (id: string) => ({ id, trajectoryId: "t" }) as unknown as StepRow;
const settle = async (recorder: EpisodeRecorder, until: () => boolean) => {
  for (let i = 0; i < 200 && !until(); i++) {
    await recorder.flush();
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe("EpisodeRecorder", () => {
  it("keeps every write through a full disk, in order, and stores them all once it passes", async () => {
    const state = { fault: new Error("SQLITE_FULL: database or disk is full") as Error | null };
    const { writer, stored } = flakyWriter(state);
    const lines: string[] = [];
    const recorder = new EpisodeRecorder(writer, 1, 1_000, (l) => lines.push(l));
    const ids = Array.from({ length: 12 }, (_, i) => `s${i}`);
    for (const id of ids.slice(0, 6)) recorder.step(step(id));
    // Past the retries after which a batch is written one by one: a fault of the machine drops nothing.
    await settle(recorder, () => lines.length >= 6);
    for (const id of ids.slice(6)) recorder.step(step(id));
    expect(stored).toEqual([]);
    state.fault = null;
    await settle(recorder, () => stored.length === ids.length);
    expect(stored).toEqual(ids);
    expect(lines.some((l) => l.includes("dropped"))).toBe(false);
  });

  it("drops only a write the database refuses for itself, logged, and stores the rest", async () => {
    const state = { fault: null as Error | null, refuse: "s2" };
    const { writer, stored } = flakyWriter(state);
    const lines: string[] = [];
    const recorder = new EpisodeRecorder(writer, 1, 1_000, (l) => lines.push(l));
    for (const id of ["s0", "s1", "s2", "s3"]) recorder.step(step(id));
    await settle(recorder, () => stored.length === 3);
    expect(stored).toEqual(["s0", "s1", "s3"]);
    expect(lines.filter((l) => l.includes("dropped a step of t"))).toHaveLength(1);
  });
});
