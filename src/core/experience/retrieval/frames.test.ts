import { describe, expect, it } from "vitest";
import type { Observation } from "../../types";
import { FrameCounts } from "./frames";

/*
 * A made-up workshop, none of the built-in domains' words, whose pages end with a status line of two parts.
 * Walking changes where the agent is and never what it carries; grabbing changes what it carries.
 */
const page = (text: string, at: string, carrying: string, actions: string[] = []): Observation => ({
  text: `${text}\n[at: ${at} | carrying: ${carrying}]`,
  actions,
});

function workshop(): FrameCounts {
  const frames = new FrameCounts();
  for (let i = 1; i <= 25; i++) {
    const held = i % 2 === 0 ? "nothing" : `gear ${i}`;
    frames.learn(
      page("You stand.", `bench ${i}`, held),
      `walk rack ${i}`,
      page("You walk.", `rack ${i}`, held),
      new Set(),
    );
    frames.learn(
      page("You stand.", `rack ${i}`, "nothing"),
      `grab bolt ${i}`,
      page("Got it.", `rack ${i}`, `bolt ${i}`),
      new Set(),
    );
  }
  return frames;
}

describe("what an action leaves as it was", () => {
  const here = page("You stand.", "bench 1", "nothing", ["walk rack 2", "grab nut 1"]);

  it("keeps the part a kind of action never changed, and the rest as predicted", () => {
    // Rewritten from a demonstration whose agent carried a knife.
    const predicted = page("You walk.", "rack 2", "knife 1", ["drop knife 1 on rack 2", "walk bench 1"]);
    const kept = workshop().keep(here, "walk rack 2", predicted);
    expect(kept.text).toBe("You walk.\n[at: rack 2 | carrying: nothing]");
    // There is no knife to drop when carrying nothing.
    expect(kept.actions).toEqual(["walk bench 1"]);
  });

  it("names what this page carries in the actions the analogue offered for its own", () => {
    const holding = page("You stand.", "bench 1", "cog 3", ["walk rack 2", "drop cog 3 on bench 1"]);
    const predicted = page("You walk.", "rack 2", "knife 1", ["drop knife 1 on rack 2"]);
    const kept = workshop().keep(holding, "walk rack 2", predicted);
    expect(kept.text).toContain("carrying: cog 3]");
    expect(kept.actions).toEqual(["drop cog 3 on rack 2"]);
  });

  it("leaves alone a part the action changes", () => {
    const predicted = page("Got it.", "bench 1", "nut 1");
    expect(workshop().keep(here, "grab nut 1", predicted)).toEqual(predicted);
  });

  it("learns nothing from a few transitions, and survives the trip to a prediction thread", () => {
    const few = new FrameCounts();
    few.learn(page("a", "bench 1", "nothing"), "walk rack 1", page("b", "rack 1", "nothing"), new Set());
    const predicted = page("You walk.", "rack 2", "knife 1");
    expect(few.keep(here, "walk rack 2", predicted)).toEqual(predicted);
    const copy = FrameCounts.fromData(JSON.parse(JSON.stringify(workshop().toData())));
    expect(copy.keep(here, "walk rack 2", predicted).text).toContain("carrying: nothing]");
  });

  it("offers only what this world has: an analogue's places this episode was never offered are not there", () => {
    const frames = new FrameCounts();
    const shed = ["walk rack 1", "walk bench 1", "walk door 1"];
    const at = (place: string) =>
      page(
        "You walk.",
        place,
        "nothing",
        shed.filter((a) => a !== `walk ${place}`),
      );
    for (let i = 0; i < 25; i++) frames.learn(at("door 1"), "walk rack 1", at("rack 1"), new Set(shed));
    // Rewritten from another shed's page, which had a well and no door.
    const predicted = page("You walk.", "rack 1", "nothing", ["walk well 1", "walk bench 1", "walk door 1"]);
    const kept = frames.keep(at("door 1"), "walk rack 1", predicted, new Set(shed));
    expect(kept.actions).not.toContain("walk well 1");
    // Nor is the place it just walked to: real pages never offered that walk again.
    expect(kept.actions).not.toContain("walk rack 1");
    expect(kept.actions).toEqual(expect.arrayContaining(["walk bench 1", "walk door 1"]));
  });
  it("offers nothing real pages never offered: no kind they never had, no class where theirs were a closed set", () => {
    const frames = new FrameCounts();
    const offers = (i: number) => [`walk rack ${i}`, `walk bench ${i}`, `open drawer ${i}`, `grab bolt ${i}`];
    for (let i = 1; i <= 60; i++)
      frames.learn(
        page("You stand.", `bench ${i}`, "nothing", offers(i)),
        `walk rack ${i}`,
        page("You walk.", `rack ${i}`, "nothing", offers(i + 1)),
        new Set(),
      );
    const predicted = page("You walk.", "rack 7", "nothing", [
      "walk bench 2",
      "open drawer 3",
      "open bolt 1",
      "arrive at rack 7 you walk",
      "grab bolt 4",
    ]);
    const here = page("You stand.", "bench 6", "nothing", offers(6));
    // Only where the model rewrites pages into this task's world.
    expect(frames.keep(here, "walk rack 7", predicted, new Set(), true).actions).toEqual([
      "walk bench 2",
      "open drawer 3",
      "grab bolt 4",
    ]);
    expect(frames.keep(here, "walk rack 7", predicted, new Set()).actions).toHaveLength(5);
  });

  it("offers a kind only where real pages did: a grab only with empty hands", () => {
    const frames = new FrameCounts();
    for (let i = 1; i <= 50; i++) {
      const held = i % 2 === 0 ? "nothing" : `gear ${i}`;
      // Real pages offer a grab of what lies there only while the agent carries nothing.
      const offers = held === "nothing" ? [`walk bench ${i}`, `grab bolt ${i}`] : [`walk bench ${i}`];
      frames.learn(
        page("You stand.", `bench ${i}`, held),
        `walk rack ${i}`,
        page("You walk. A bolt lies here.", `rack ${i}`, held, offers),
        new Set(),
      );
    }
    // Rewritten from an analogue whose agent carried nothing, for an agent carrying a cog.
    const carrying = page("You stand.", "bench 1", "cog 3", ["walk rack 2"]);
    const predicted = page("You walk. A bolt lies here.", "rack 2", "nothing", [
      "walk bench 2",
      "grab bolt 2",
    ]);
    expect(frames.keep(carrying, "walk rack 2", predicted).actions).toEqual(["walk bench 2"]);
    const empty = page("You stand.", "bench 1", "nothing", ["walk rack 2"]);
    expect(frames.keep(empty, "walk rack 2", predicted).actions).toEqual(["walk bench 2", "grab bolt 2"]);
  });

  it("tells pages apart by what an action keeps of them: what is carried, not where one stands", () => {
    const frames = workshop();
    const now = page("You stand.", "bench 1", "cog 3");
    expect(frames.sameFrame(now, "walk rack 2", page("You stand.", "door 4", "cog 3"))).toBe(true);
    expect(frames.sameFrame(now, "walk rack 2", page("You stand.", "bench 1", "nothing"))).toBe(false);
    // A grab changes what is carried: nothing it keeps differs.
    expect(frames.sameFrame(now, "grab nut 1", page("You stand.", "bench 1", "nothing"))).toBe(true);
  });

  it("says what a part always says after a kind of action, whatever the analogue's page made of it", () => {
    const frames = new FrameCounts();
    for (let i = 1; i <= 25; i++)
      frames.learn(
        page("You stand.", `rack ${i}`, `bolt ${i}`),
        `drop bolt ${i} on rack ${i}`,
        page("Dropped.", `rack ${i}`, "nothing"),
        new Set(),
      );
    // An analogue's page rewritten with a wrong word for "nothing".
    const here = page("You stand.", "rack 3", "bolt 3", ["drop bolt 3 on rack 3"]);
    const predicted = page("Dropped.", "rack 3", "a fern 2", ["grab fern 2 from rack 3"]);
    expect(frames.keep(here, "drop bolt 3 on rack 3", predicted).text).toBe(
      "Dropped.\n[at: rack 3 | carrying: nothing]",
    );
    // Not where the part says something else after each action (what was grabbed).
    expect(workshop().keep(here, "grab nut 1", page("Got it.", "rack 3", "nut 1")).text).toContain(
      "carrying: nut 1]",
    );
  });

  it("gives a rewritten page the offers real pages in its frame nearly always had, by what they act on", () => {
    const frames = new FrameCounts();
    for (let i = 1; i <= 50; i++) {
      const held = i % 2 === 0 ? "nothing" : `gear ${i}`;
      // With full hands every real page at a rack offers to drop what is carried there, and to oil it.
      const offers =
        held === "nothing"
          ? [`walk bench ${i}`]
          : [`walk bench ${i}`, `drop ${held} on rack ${i}`, `oil ${held}`];
      frames.learn(
        page("You stand.", `bench ${i}`, held),
        `walk rack ${i}`,
        page("You walk.", `rack ${i}`, held, offers),
        new Set(),
      );
    }
    // Rewritten from an analogue whose agent carried nothing: it offered nothing to drop.
    const carrying = page("You stand.", "bench 1", "cog 3", ["walk rack 2"]);
    const predicted = page("You walk.", "rack 2", "nothing", ["walk bench 2"]);
    const kept = frames.keep(carrying, "walk rack 2", predicted, new Set(), true);
    expect(kept.actions).toEqual(["walk bench 2", "drop cog 3 on rack 2", "oil cog 3"]);
    // With empty hands there is nothing to add; and only where pages are rewritten into a task's world.
    const empty = page("You stand.", "bench 1", "nothing", ["walk rack 2"]);
    expect(frames.keep(empty, "walk rack 2", predicted, new Set(), true).actions).toEqual(["walk bench 2"]);
    expect(frames.keep(carrying, "walk rack 2", predicted, new Set()).actions).toEqual(["walk bench 2"]);
  });
});
