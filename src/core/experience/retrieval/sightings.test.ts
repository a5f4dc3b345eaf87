import { describe, expect, it } from "vitest";
import type { Observation, Transition } from "../../types";
import { Rng } from "../../util/random";
import { movesOf, SightingCounts } from "./sightings";

/*
 * A made-up greenhouse, none of the built-in domains' words: a gardener looks into beds and pots for the flower a
 * request names. Each request's rose grows in one of three beds, never in a pot. An expert looks straight into the
 * right bed; a wanderer looks into three places at random.
 */
const PLACES = ["bed 1", "bed 2", "bed 3", "pot 1", "pot 2"];
const path = (): Observation => ({
  text: "You stand on the path.",
  actions: PLACES.map((p) => `look in ${p}`),
});

function look(episode: number, i: number, place: string, rose: string, ends = false): Transition {
  // Now and then a pot's cactus is a fresh one: a word of the request, but no thing a successful episode sought.
  const other = place.startsWith("pot") && (episode + i) % 5 === 0 ? "a fresh cactus 1" : "a fern 2";
  return {
    id: `g-${episode}-${i}`,
    domain: "greenhouse",
    instruction: "bring a fresh rose to the porch.",
    source: "offline",
    state: path(),
    action: `look in ${place}`,
    next: { text: `In the ${place} grows ${place === rose ? "a rose 1" : other}.`, actions: path().actions },
    reward: ends ? 1 : 0,
    done: ends,
    success: ends,
    valid: true,
  };
}

function greenhouse(wanderers = 60): SightingCounts {
  const sightings = new SightingCounts();
  const rng = new Rng("greenhouse");
  for (let e = 0; e < 60 + wanderers; e++) {
    const rose = `bed ${rng.int(1, 3)}`;
    const looks = e < 60 ? [rose] : [0, 1, 2].map(() => rng.pick(PLACES));
    const offers = new Set(path().actions);
    looks.forEach((place, i) => {
      sightings.learn(look(e, i, place, rose, e < 60), offers);
    });
    sightings.endEpisode();
  }
  return sightings;
}

const ask = (s: SightingCounts, task: string, place: string, predicted: Observation) =>
  s.sight(
    task,
    "bring a fresh tulip to the porch.",
    path(),
    `look in ${place}`,
    predicted,
    path().actions ?? [],
  );

describe("where a request's things are", () => {
  it("learns where real episodes first found a request's thing, per place, whoever chose where to look", () => {
    const sightings = greenhouse();
    const bed = sightings.odds("bed", "rose") ?? 0;
    expect(bed).toBeGreaterThan(0.2);
    expect(sightings.odds("pot", "rose") ?? 1).toBeLessThan(bed / 5);
    // A look into a bed known to hold the rose shows it.
    expect(sightings.reveal("look in *", "bed")).toBeGreaterThan(0.9);
    // The expert's looks all found it, yet one place holds it, not every bed.
    expect(sightings.places("bring a fresh rose to the porch.")).toBeLessThan(1.2);
  });

  it("draws each task's world whole: the thing is in one place, never a pot, the same every time it is asked", () => {
    const sightings = greenhouse();
    const empty = (place: string) => ({ text: `In the ${place} grows nothing.` });
    const counts: number[] = [];
    for (let task = 0; task < 200; task++) {
      let held = 0;
      for (const place of PLACES) {
        const first = ask(sightings, `task-${task}`, place, empty(place));
        expect(ask(sightings, `task-${task}`, place, empty(place))).toEqual(first);
        if (first?.held) {
          held++;
          expect(place).toMatch(/^bed/);
          // A real bed's page, made this request's and this bed's.
          expect(first.next.text).toContain(`${place} grows a tulip`);
          // "fresh" showed on pages, but successful episodes did not seek it: no world holds it anywhere.
          expect(first.word).toBe("tulip");
        }
      }
      counts.push(held);
    }
    expect(counts.filter((n) => n === 0).length).toBeLessThan(10);
    expect(counts.reduce((a, b) => a + b, 0) / counts.length).toBeLessThan(1.3);
  });

  it("takes away what a pot never holds, and leaves alone a page that agrees with the world", () => {
    const sightings = greenhouse();
    const made = ask(sightings, "task-1", "pot 2", { text: "In the pot 2 grows a tulip 3." });
    expect(made?.held).toBe(false);
    expect(made?.next.text).not.toContain("tulip");
    expect(made?.next.text).toContain("pot 2");
    expect(ask(sightings, "task-1", "pot 2", { text: "In the pot 2 grows a cactus 1." })).toBe(undefined);
  });

  it("sees the thing at each place that shows it, whatever the page before showed, and not in what the agent carries", () => {
    // Every rose grows in two beds; the gardener carries one picked earlier, which the status part names on every page.
    const sightings = new SightingCounts();
    const step = (e: number, i: number, action: string, before: string, after: string): Transition => ({
      ...look(e, i, "bed 1", "bed 1"),
      action,
      state: { text: before, actions: path().actions },
      next: { text: after, actions: path().actions },
    });
    for (let e = 0; e < 40; e++) {
      const status = (at: string) => `\n[at: ${at} | carrying: rose 9]`;
      const offers = new Set(path().actions);
      const pages = [
        `You stand on the path.${status("path")}`,
        `In the bed 1 grows a rose 1.${status("bed 1")}`,
        `In the bed 2 grows a rose 2.${status("bed 2")}`,
        `In the pot 1 grows a fern 2.${status("pot 1")}`,
      ];
      ["bed 1", "bed 2", "pot 1"].forEach((place, i) => {
        sightings.learn(step(e, i, `look in ${place}`, pages[i]!, pages[i + 1]!), offers);
      });
      sightings.endEpisode();
    }
    // Two places a request's rose was seen at, not one (the page before showed a rose too), and never the pot
    // (whose page names the rose carried).
    expect(sightings.places("bring a fresh rose to the porch.")).toBeGreaterThan(1.8);
    expect(sightings.odds("pot", "rose") ?? 0).toBe(0);
  });

  it("does not take a place the agent put the thing in for one that held it", () => {
    const sightings = new SightingCounts();
    for (let e = 0; e < 40; e++) {
      const offers = new Set(path().actions);
      // The rose is in bed 1; the gardener looks into bed 2 (empty), picks the rose, puts it in bed 2, looks again.
      const steps: [string, string][] = [
        ["look in bed 2", "In the bed 2 grows nothing."],
        ["look in bed 1", "In the bed 1 grows a rose 1."],
        ["pick rose 1 from bed 1", "You pick the rose 1."],
        ["put rose 1 in bed 2", "You put the rose 1 in the bed 2."],
        ["look in bed 2", "In the bed 2 grows a rose 1."],
      ];
      steps.forEach(([action, text], i) => {
        sightings.learn(
          { ...look(e, i, "bed 1", "bed 1"), action, next: { text, actions: path().actions } },
          offers,
        );
      });
      sightings.endEpisode();
    }
    // Every look into a bed that held the rose showed it: the empty look into bed 2 came before the put.
    expect(sightings.reveal("look in *", "bed")).toBeGreaterThan(0.95);
    expect(sightings.places("bring a fresh rose to the porch.")).toBeLessThan(1.2);
  });

  it("draws no world where requests say where their things are", () => {
    // Each request names the bed its rose grows in: the page of that bed, rewritten for the request, already shows it
    // (here the analogue's page is left as it is, whatever it shows).
    const sightings = new SightingCounts();
    const rng = new Rng("named beds");
    for (let e = 0; e < 60; e++) {
      const rose = `bed ${rng.int(1, 3)}`;
      const offers = new Set(path().actions);
      sightings.learn(
        { ...look(e, 0, rose, rose, true), instruction: `bring the rose of ${rose} to the porch.` },
        offers,
      );
      sightings.endEpisode();
    }
    const asked = sightings.sight(
      "task-1",
      "bring the tulip of bed 2 to the porch.",
      path(),
      "look in bed 2",
      { text: "In the bed 2 grows nothing." },
      path().actions ?? [],
    );
    expect(asked).toBe(undefined);
    // Where requests do not say where, the same page is made this world's.
    expect(ask(greenhouse(), "task-1", "pot 2", { text: "In the pot 2 grows a tulip 3." })?.held).toBe(false);
  });

  it("counts the places an episode did not seek the thing at but saw it at once it had one", () => {
    // The rose grows in one place, and a second one in each other place one time in five; once it has picked the
    // first, the gardener looks into two other places chosen by the request (to water them), not by the roses.
    const sightings = new SightingCounts();
    const rng = new Rng("second roses");
    for (let e = 0; e < 200; e++) {
      const first = rng.pick(PLACES);
      const others = PLACES.filter((p) => p !== first);
      const second = new Set(others.filter(() => rng.next() < 0.2));
      const offers = new Set(path().actions);
      const page = (place: string) => `In the ${place} grows ${second.has(place) ? "a rose 2" : "a fern 2"}.`;
      const watered = [...others].sort(() => rng.next() - 0.5).slice(0, 2);
      const steps: [string, string][] = [
        [`look in ${first}`, `In the ${first} grows a rose 1.`],
        [`pick rose 1 from ${first}`, "You pick the rose 1."],
        ...watered.map((p): [string, string] => [`look in ${p}`, page(p)]),
      ];
      steps.forEach(([action, text], i) => {
        sightings.learn(
          { ...look(e, i, first, first), action, next: { text, actions: path().actions } },
          offers,
        );
      });
      sightings.endEpisode();
    }
    const instruction = "bring a fresh rose to the porch.";
    // Seen: the first rose and a second at 0.4 of the episodes; held: 1.8 places of 5.
    expect(sightings.places(instruction)).toBeLessThan(1.5);
    expect(sightings.places(instruction, 5)).toBeGreaterThan(1.65);
    expect(sightings.places(instruction, 5)).toBeLessThan(1.95);
  });

  it("survives the trip to a prediction thread", () => {
    const copy = SightingCounts.fromData(JSON.parse(JSON.stringify(greenhouse().toData())));
    expect(copy.odds("bed", "rose")).toBeCloseTo(greenhouse().odds("bed", "rose") ?? 0, 6);
  });

  it("shows a thing where the agent moved it, not where the drawn world had it", () => {
    const sightings = greenhouse();
    const status = (carrying: string) => `\n[at: path | carrying: ${carrying}]`;
    const instruction = "bring a fresh tulip to the porch.";
    // The task whose world holds the tulip in some bed: the agent picks it there and sets it down in pot 1.
    const task = Array.from({ length: 50 }, (_, i) => `task-${i}`).find((t) =>
      ["bed 1", "bed 2", "bed 3"].some(
        (bed) => ask(sightings, t, bed, { text: `In the ${bed} grows nothing.` })?.held,
      ),
    )!;
    const bed = ["bed 1", "bed 2", "bed 3"].find(
      (b) => ask(sightings, task, b, { text: `In the ${b} grows nothing.` })?.held,
    )!;
    const picked = { action: `pick tulip 1 from ${bed}`, next: { text: `You pick it.${status("tulip 1")}` } };
    const set = { action: "set tulip 1 in pot 1", next: { text: `You set it down.${status("nothing")}` } };
    const places = PLACES;
    expect(movesOf(instruction, [picked], places)).toEqual(new Map([[`tulip\u0000${bed}`, false]]));
    expect(movesOf(instruction, [picked, set], places)).toEqual(
      new Map([
        [`tulip\u0000${bed}`, false],
        ["tulip\u0000pot 1", true],
      ]),
    );
    const look = (place: string, steps: { action: string; next: Observation }[], shows: string) =>
      sightings.sight(
        task,
        instruction,
        path(),
        `look in ${place}`,
        { text: `In the ${place} grows ${shows}.` },
        path().actions ?? [],
        steps,
      );
    // Picked: the bed no longer shows it, though the world drew it there.
    expect(look(bed, [picked], "a tulip 1")?.held).toBe(false);
    // Set down in a pot, where no world ever holds one: the pot shows it.
    const inPot = look("pot 1", [picked, set], "a fern 2");
    expect(inPot?.held).toBe(true);
    expect(inPot?.next.text).toContain("tulip");
    // Pages without a labelled part cannot say what is carried: no move is read from them.
    expect(movesOf(instruction, [{ ...picked, next: { text: "You pick it." } }], places).size).toBe(0);
  });

  it("never shows a request's thing already where the request says to put it, though each such place is rare", () => {
    // Requests name one of six baskets to put the rose in; the rose grows in a bed or in another basket, never in the
    // one named. Each basket is named by a tenth of the requests: too few to know it alone, enough as a role.
    const BASKETS = ["crate", "hamper", "tray", "jar", "vase", "tub"];
    const places = [...BASKETS.map((b) => `${b} 1`), "bed 1", "bed 2"];
    const yard = (): Observation => ({
      text: "You stand in the yard.",
      actions: places.map((p) => `look in ${p}`),
    });
    const sightings = new SightingCounts();
    const rng = new Rng("baskets");
    for (let e = 0; e < 60; e++) {
      const named = BASKETS[e % BASKETS.length]!;
      const instruction = `put a rose in the ${named}.`;
      const others = places.filter((p) => !p.startsWith(named));
      const rose = rng.next() < 0.6 ? rng.pick(["bed 1", "bed 2"]) : rng.pick(others);
      // Looking about until the rose is found, then at the basket to put it in.
      const looks = [...new Set([rng.pick(others), rose, `${named} 1`])];
      looks.forEach((place, i) => {
        const last = i === looks.length - 1;
        sightings.learn(
          {
            id: `b-${e}-${i}`,
            domain: "yard",
            instruction,
            source: "offline",
            state: yard(),
            action: `look in ${place}`,
            next: {
              text: `In the ${place} lies ${place === rose ? "a rose 1" : "a pebble 1"}.`,
              actions: yard().actions,
            },
            reward: last ? 1 : 0,
            done: last,
            success: last,
            valid: true,
          },
          new Set(yard().actions),
        );
      });
      sightings.endEpisode();
    }
    const instruction = "put a lily in the vase.";
    const shown = (task: string, place: string) => {
      const predicted = { text: `In the ${place} lies a lily 1.` };
      const sighting = sightings.sight(
        task,
        instruction,
        yard(),
        `look in ${place}`,
        predicted,
        yard().actions ?? [],
      );
      return sighting ? sighting.held : true;
    };
    const tasks = Array.from({ length: 40 }, (_, i) => `task-${i}`);
    // The vase the request names holds no lily in any task's world; another basket does in some.
    expect(tasks.filter((t) => shown(t, "vase 1"))).toEqual([]);
    expect(tasks.filter((t) => shown(t, "jar 1")).length).toBeGreaterThan(0);
  });
});
