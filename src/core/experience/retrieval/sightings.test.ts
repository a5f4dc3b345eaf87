import { describe, expect, it } from "vitest";
import type { Observation, Transition } from "../../types";
import { pageWords, SightingCounts } from "./sightings";

/*
 * A made-up greenhouse, none of the built-in domains' words: a gardener looks into beds and pots for the flower
 * a request names. Roses grow in beds (one look in two finds one), never in pots.
 */
const page = (text: string): Observation => ({ text, actions: ["look in bed 1", "look in pot 1"] });

function step(i: number, place: "bed" | "pot", found: string): Transition {
  const state = page("You stand on the path.");
  return {
    id: `g-${place}-${i}`,
    domain: "greenhouse",
    instruction: "bring a rose to the porch.",
    source: "offline",
    state,
    action: `look in ${place} ${(i % 3) + 1}`,
    next: page(`In the ${place} ${(i % 3) + 1} grows ${found}.`),
    reward: 0,
    done: false,
    success: false,
    valid: true,
  };
}

function greenhouse(): SightingCounts {
  const sightings = new SightingCounts();
  for (let i = 0; i < 40; i++) {
    const bed = step(i, "bed", i % 2 === 0 ? "a rose 1" : "a fern 2");
    sightings.learn(bed, pageWords([bed.state]));
    const pot = step(i, "pot", "a cactus 1");
    sightings.learn(pot, pageWords([pot.state]));
  }
  return sightings;
}

describe("where a request's things turn up", () => {
  it("learns how often looking at each kind of place shows what the request names", () => {
    const sightings = greenhouse();
    expect(sightings.rate("look in *", "bed", "rose", false)).toBeCloseTo(0.5, 1);
    expect(sightings.rate("look in *", "pot", "rose", false)).toBeLessThan(0.1);
    // Words no look ever shows: the porch is where the rose goes, not what a bed holds.
    expect(sightings.rate("look in *", "bed", "porch", false)).toBeLessThan(0.1);
  });

  it("makes each task's world hold the request's thing at about that rate, the same every time it is asked", () => {
    const sightings = greenhouse();
    const here = page("You stand on the path.");
    const empty = { text: "In the bed 7 grows nothing." };
    let held = 0;
    for (let task = 0; task < 200; task++) {
      const ask = () =>
        sightings.sight(
          `task-${task}`,
          "bring a tulip to the porch.",
          here,
          "look in bed 7",
          empty,
          new Set(),
        );
      const first = ask();
      expect(ask()).toEqual(first);
      if (first?.held) {
        held++;
        // A real bed's page, made this request's and this bed's.
        expect(first.next.text).toMatch(/bed 7 grows a tulip/);
        expect(first.word).toBe("tulip");
      }
    }
    expect(held / 200).toBeGreaterThan(0.3);
    expect(held / 200).toBeLessThan(0.7);
  });

  it("takes away what a pot never holds, and leaves alone a page that agrees with the draw", () => {
    const sightings = greenhouse();
    const here = page("You stand on the path.");
    const invented = { text: "In the pot 4 grows a rose 3." };
    const made = sightings.sight(
      "task-1",
      "bring a rose to the porch.",
      here,
      "look in pot 4",
      invented,
      new Set(),
    );
    expect(made?.held).toBe(false);
    expect(made?.next.text).not.toContain("rose");
    expect(made?.next.text).toContain("pot 4");
    const agrees = { text: "In the pot 4 grows a cactus 1." };
    expect(
      sightings.sight("task-1", "bring a rose to the porch.", here, "look in pot 4", agrees, new Set()),
    ).toBe(undefined);
  });

  it("survives the trip to a prediction thread", () => {
    const copy = SightingCounts.fromData(JSON.parse(JSON.stringify(greenhouse().toData())));
    expect(copy.rate("look in *", "bed", "rose", false)).toBeCloseTo(0.5, 1);
  });
});
