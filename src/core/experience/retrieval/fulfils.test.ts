import { describe, expect, it } from "vitest";
import { episodeTrace, goalEvidence } from "./evidence";
import { FulfilsCounts } from "./fulfils";

/*
 * A made-up workshop, none of the built-in domains' words: requests to put a part somewhere, some of them a
 * polished or a painted part. The last page shows where the part went, never whether it was polished.
 */
const page = (text: string) => ({ text });
const end = (part: string, place: string) => ({
  state: page(`At the ${place}. Carrying ${part}.`),
  action: `place ${part} on ${place}`,
});

/** A valid step at the bench: what episodeTrace reads of an episode. */
const step = (action: string) => ({ state: page("At the bench."), action, valid: true });

function workshop(): FulfilsCounts {
  const counts = new FulfilsCounts();
  for (let i = 0; i < 8; i++) {
    counts.add(
      `place a polished gear on the bench.`,
      ["walk bench", "grab gear", "polish gear", "place gear on bench"],
      end("gear", "bench"),
    );
    counts.add(
      `place a painted crate on the rack.`,
      ["walk rack", "grab crate", "paint crate", "place crate on rack"],
      end("crate", "rack"),
    );
    counts.add(
      `place a bolt on the shelf.`,
      ["walk shelf", "grab bolt", "place bolt on shelf"],
      end("bolt", "shelf"),
    );
  }
  return counts;
}

describe("which actions do what a request asks where its end does not show it", () => {
  it("learns the verb each unshown word needs, and nothing of the verbs every episode uses", () => {
    const fulfils = workshop().fulfils();
    expect([...(fulfils.does.get("polish") ?? [])]).toEqual(["polished"]);
    expect([...(fulfils.does.get("paint") ?? [])]).toEqual(["painted"]);
    // Walking and grabbing happen in every episode: they do nothing in particular.
    expect(fulfils.does.has("walk")).toBe(false);
    expect(fulfils.does.has("grab")).toBe(false);
  });

  it("says nothing from too few episodes", () => {
    const counts = new FulfilsCounts();
    counts.add(
      "place a polished gear on the bench.",
      ["polish gear", "place gear on bench"],
      end("gear", "bench"),
    );
    counts.add("place a bolt on the shelf.", ["place bolt on shelf"], end("bolt", "shelf"));
    expect(counts.fulfils().does.size).toBe(0);
  });

  it("survives the trip to a prediction thread", () => {
    const counts = workshop();
    const copy = FulfilsCounts.fromData(JSON.parse(JSON.stringify(counts.toData())));
    expect(copy.fulfils()).toEqual(counts.fulfils());
  });

  it("tells a part put down polished from one put down as it was, though the last pages are the same", () => {
    const fulfils = workshop().fulfils();
    const request = "place a polished gear on the bench.";
    const polished = episodeTrace(
      [step("grab gear"), step("polish gear"), step("walk bench")],
      request,
      fulfils,
    );
    const skipped = episodeTrace([step("grab gear"), step("walk bench")], request, fulfils);
    expect(polished).toBe("polish gear (polished)");
    expect(skipped).toBe("");
    const last = end("gear", "bench");
    const done = goalEvidence(request, last.state, last.action, true, undefined, undefined, polished);
    const undone = goalEvidence(request, last.state, last.action, true, undefined, undefined, skipped);
    expect(done.met).toBe(undone.met + 1);
    expect(done.score).toBeGreaterThan(undone.score);
  });

  it("learns what a verb used twice does, and marks both uses once the step being judged is the second", () => {
    const counts = workshop();
    for (let i = 0; i < 8; i++)
      counts.add(
        "place both cogs on the bench.",
        ["grab cog", "place cog on bench", "grab cog", "place cog on bench"],
        end("cog", "bench"),
      );
    const fulfils = counts.fulfils();
    expect([...(fulfils.does.get("place again") ?? [])]).toContain("both");
    // Placing was never done twice elsewhere; once is nothing in particular.
    expect(fulfils.does.has("place")).toBe(false);
    const request = "place both cogs on the bench.";
    const first = [step("grab cog")];
    const second = [step("grab cog"), step("place cog on bench"), step("grab cog")];
    expect(episodeTrace(first, request, fulfils, "place cog on bench")).not.toContain("both");
    expect(episodeTrace(second, request, fulfils, "place cog on bench")).toMatch(/place cog on bench \(both/);
    // One cog on the bench, then a rag on a shelf: placing twice, but not the two cogs the request asks for.
    const other = [step("grab cog"), step("place cog on bench"), step("grab rag")];
    expect(episodeTrace(other, request, fulfils, "place rag on shelf")).not.toContain("both");
    // One numbered cog placed, taken back from the bench and placed again: still one cog on the bench.
    const again = [
      step("grab cog 1 from rack 1"),
      step("place cog 1 on bench 1"),
      step("grab cog 1 from bench 1"),
    ];
    expect(episodeTrace(again, request, fulfils, "place cog 1 on bench 1")).not.toContain("both");
    const two = [
      step("grab cog 1 from rack 1"),
      step("place cog 1 on bench 1"),
      step("grab cog 2 from rack 1"),
    ];
    expect(episodeTrace(two, request, fulfils, "place cog 2 on bench 1")).toMatch(/\(both/);
  });

  it("learns where two uses of a verb differ, so one cog grabbed from place after place is not two cogs", () => {
    const counts = workshop();
    const request = "place both cogs on the bench.";
    // Real episodes: two numbered cogs, from one rack or two, onto one bench.
    for (let i = 0; i < 24; i++)
      counts.add(
        request,
        [
          `grab cog 1 from rack ${1 + (i % 2)}`,
          "place cog 1 on bench 1",
          "grab cog 2 from rack 1",
          "place cog 2 on bench 1",
        ],
        end("cog 2", "bench 1"),
      );
    const fulfils = counts.fulfils();
    // Grabs and placements made again always differed in the cog (argument 0); the rack and bench were often one.
    expect(fulfils.apart.get("grab")).toEqual([0]);
    expect(fulfils.apart.get("place")).toEqual([0]);
    expect([...(fulfils.does.get("grab again") ?? [])]).toContain("both");
    // One cog placed on a bench, taken back, placed on another bench, taken back: grabbed three times, but one cog.
    const oneCog = [
      step("grab cog 1 from rack 1"),
      step("place cog 1 on bench 2"),
      step("grab cog 1 from bench 2"),
      step("place cog 1 on bench 3"),
      step("grab cog 1 from bench 3"),
    ];
    expect(episodeTrace(oneCog, request, fulfils, "place cog 1 on bench 1")).not.toContain("both");
    const twoCogs = [
      step("grab cog 1 from rack 1"),
      step("place cog 1 on bench 1"),
      step("grab cog 2 from rack 2"),
    ];
    expect(episodeTrace(twoCogs, request, fulfils, "place cog 2 on bench 1")).toMatch(/\(both/);
    // Copied to a prediction thread, it still tells them apart.
    const copy = FulfilsCounts.fromData(JSON.parse(JSON.stringify(counts.toData()))).fulfils();
    expect(episodeTrace(oneCog, request, copy, "place cog 1 on bench 1")).not.toContain("both");
  });
});
