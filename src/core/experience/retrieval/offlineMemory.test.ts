import { describe, expect, it } from "vitest";
import { household } from "../../envs/household";
import { office } from "../../envs/office";
import { shop } from "../../envs/shop";
import { episodeTransitions } from "../../replay/episodeTransitions";
import { rollout } from "../../rollout";
import type { Transition } from "../../types";
import { offlineMemoryBuffer, unseenEntry } from "../testing";
import { referentLines } from "./evidence";
import { OfflineMemory, parseListing, renderListing } from "./offlineMemory";
import { RetrievalExperienceModel } from "./retrievalModel";

const RESULTS = {
  text: "Instruction: [SEP] find a red mug [SEP] Back to Search [SEP] Page 1 (Total results: 3) [SEP] Next > [SEP] B01 [SEP] Red Stone Mug, Large [SEP] $12.00 [SEP] B02 [SEP] Blue Glass Cup [SEP] $8.50 [SEP] B03 [SEP] Green Tea Mug, Small [SEP] $9.99",
  actions: ["click[back to search]", "click[next >]", "click[b01]", "click[b02]", "click[b03]"],
};

async function offlineTransitions(episodes: number): Promise<Transition[]> {
  const out: Transition[] = [];
  for (let i = 0; i < episodes; i++) {
    const episode = await rollout(
      shop.createEnvironment(),
      shop.noisy(i, 0.3),
      shop.task("train", i),
      shop.maxSteps,
    );
    out.push(...episodeTransitions(episode, "offline", `o${i}`));
  }
  return out;
}

describe("offline memory", () => {
  it("finds a page's listing: each clickable entry with the same number of fields after it", () => {
    const listing = parseListing(RESULTS);
    expect(listing?.head).toEqual([
      "Instruction:",
      "find a red mug",
      "Back to Search",
      "Page 1 (Total results: 3)",
      "Next >",
    ]);
    expect(listing?.records).toEqual([
      { key: "B01", fields: ["Red Stone Mug, Large", "$12.00"] },
      { key: "B02", fields: ["Blue Glass Cup", "$8.50"] },
      { key: "B03", fields: ["Green Tea Mug, Small", "$9.99"] },
    ]);
    expect(renderListing(listing!)).toBe(RESULTS.text);
    // A page of a few buttons is no listing.
    expect(
      parseListing({
        text: "Item [SEP] size [SEP] small [SEP] large [SEP] Buy Now",
        actions: ["click[small]", "click[large]", "click[buy now]"],
      }),
    ).toBeUndefined();
  });

  it("ranks remembered entries for a query, and only learns from valid offline transitions", () => {
    const step = (source: Transition["source"], valid: boolean): Transition => ({
      id: `${source}-${valid}`,
      domain: "shop",
      instruction: "find a red mug",
      source,
      state: { text: "WebShop [SEP] Search", actions: ["search[...]"] },
      action: "search[mug]",
      next: RESULTS,
      reward: 0,
      done: false,
      success: false,
      valid,
    });
    expect(
      OfflineMemory.fromTransitions([step("synthetic", true), step("offline", false)]).size.records,
    ).toBe(0);
    const memory = OfflineMemory.fromTransitions([step("offline", true)]);
    expect(memory.ranked("red mug", 2).map((r) => r.key)).toEqual(["B01", "B03"]);
    expect(memory.ranked("glass", 5).map((r) => r.key)).toEqual(["B02"]);
    // It survives the trip to a prediction thread.
    expect(OfflineMemory.fromData(JSON.parse(JSON.stringify(memory.toData()))).ranked("red mug", 2)).toEqual(
      memory.ranked("red mug", 2),
    );
  });

  it("learns the values each group of options takes on the shop's pages, and whether its rewards are graded", async () => {
    const transitions = await offlineTransitions(40);
    const memory = OfflineMemory.fromTransitions(transitions);
    const groups = memory.toData().choices.map(([group]) => group);
    // The shop's option groups, and nothing else named like one (no "rating: 4.1", no price, no instruction).
    expect(groups.length).toBeGreaterThan(2);
    for (const group of groups) expect(group).toMatch(/^[a-z]+( [a-z]+){0,2}$/);
    expect(groups).toContain("size");
    // Every value learnt for a group was a button of that group on some page the episodes saw.
    const sizes = memory.optionValues("size") ?? new Set<string>();
    expect(sizes.size).toBeGreaterThan(3);
    const pages = transitions.flatMap((t) => [t.state, t.next]);
    for (const size of sizes)
      expect(pages.some((p) => p.actions?.some((a) => a.toLowerCase() === `click[${size}]`))).toBe(true);
    // Its noisy purchases were paid in part.
    expect(memory.gradedOutcomes).toBe(true);
    const copy = OfflineMemory.fromData(JSON.parse(JSON.stringify(memory.toData())));
    expect(copy.optionValues("size")).toEqual(sizes);
    expect(copy.gradedOutcomes).toBe(true);
  });

  it("lets the model list remembered entries for the query and reopen remembered pages with this task's instruction", async () => {
    const transitions = await offlineTransitions(40);
    const memory = OfflineMemory.fromTransitions(transitions);
    const buffer = await offlineMemoryBuffer(shop, 40);
    const withMemory = new RetrievalExperienceModel({ reasoning: true }, memory);
    const task = shop.task("test", 3);
    const env = shop.createEnvironment();
    const state = await env.reset(task);
    const query = "eau de parfum";
    const action = `search[${query}]`;
    const demonstrations = await buffer.similar(
      { domain: "shop", state: state.text, action, instruction: task.instruction },
      8,
    );
    const p = await withMemory.predict({ task, history: [], state, action, demonstrations });
    const listing = parseListing(p.next);
    expect(listing).toBeDefined();
    // Every entry is one the offline demonstrations showed, the best one matches the query, and the page echoes
    // this task's instruction.
    for (const r of listing!.records)
      expect(memory.ranked(r.fields.join(" "), 2000).map((x) => x.key)).toContain(r.key);
    expect(listing!.records[0]!.fields[0]!.toLowerCase()).toContain(query);
    expect(p.next.text).toContain(task.instruction);
    expect(p.next.actions).toContain(`click[${listing!.records[0]!.key.toLowerCase()}]`);
    expect(p.reasoning).toMatch(/best match "eau de parfum"/);

    // An entry whose page the demonstrations opened comes back as that page, under this task's instruction.
    const opened = transitions.find((t) => t.valid && parseListing(t.state) && /click\[b0/.test(t.action))!;
    const reopened = await withMemory.predict({
      task,
      history: [],
      state: opened.state,
      action: opened.action,
      demonstrations: await buffer.similar(
        { domain: "shop", state: opened.state.text, action: opened.action, instruction: task.instruction },
        8,
        { excludeTaskIds: [opened.taskId ?? ""] },
      ),
    });
    expect(reopened.next.text).toBe(opened.next.text.replaceAll(opened.instruction, task.instruction));
    expect(reopened.confidence?.parts.match).toBe(1);
  });

  it("learns which actions go back to an earlier page, and then predicts that page from the episode's history", async () => {
    const item = (key: string) => ({
      text: `Instruction: [SEP] find a red mug [SEP] < Prev [SEP] ${key} details [SEP] Buy Now`,
      actions: ["click[< prev]", "click[buy now]"],
    });
    const episode = (n: number): Transition[] => {
      const base = {
        domain: "shop",
        instruction: "find a red mug",
        source: "offline" as const,
        reward: 0,
        done: false,
        success: false,
        valid: true,
      };
      return [
        {
          ...base,
          id: `e${n}-0`,
          state: { text: "Search", actions: ["search[...]"] },
          action: "search[mug]",
          next: RESULTS,
        },
        { ...base, id: `e${n}-1`, state: RESULTS, action: "click[b01]", next: item("B01") },
        { ...base, id: `e${n}-2`, state: item("B01"), action: "click[< prev]", next: RESULTS },
      ];
    };
    const few = OfflineMemory.fromTransitions([1, 2].flatMap(episode));
    expect(few.goesBack("click[< prev]")).toBe(false);
    const memory = OfflineMemory.fromTransitions([1, 2, 3, 4, 5].flatMap(episode));
    expect(memory.goesBack("click[< prev]")).toBe(true);
    expect(memory.goesBack("click[b01]")).toBe(false);

    // This episode saw another listing; "< Prev" brings back that one, not the analogue's.
    const ours = { ...RESULTS, text: RESULTS.text.replace("Red Stone Mug, Large", "Red Clay Mug, Tall") };
    const task = {
      id: "shop:test:1",
      domain: "shop",
      instruction: "find a red mug",
      split: "test" as const,
      origin: "seed" as const,
    };
    const [, opened, back] = episode(9);
    const p = await new RetrievalExperienceModel({ reasoning: true }, memory).predict({
      task,
      history: [
        {
          state: ours,
          action: "click[b01]",
          next: item("B01"),
          reward: 0,
          done: false,
          success: false,
          valid: true,
        },
      ],
      state: item("B01"),
      action: "click[< prev]",
      demonstrations: [
        { ...back!, score: 0.9 },
        { ...opened!, score: 0.5 },
      ],
    });
    expect(p.next).toEqual(ours);
    expect(p.confidence?.parts.match).toBe(1);
  });

  it("goes back only to a page of the analogue's kind, and takes a revisit only from a page of the same kind", async () => {
    const SEARCH = {
      text: "WebShop [SEP] Instruction: [SEP] find a red mug [SEP] Search",
      actions: ["search[...]"],
    };
    const ITEM = {
      text: "Instruction: [SEP] find a red mug [SEP] Back to Search [SEP] < Prev [SEP] size [SEP] small [SEP] large [SEP] Red Stone Mug, Large [SEP] Description [SEP] Features [SEP] Buy Now",
      actions: [
        "click[back to search]",
        "click[< prev]",
        "click[small]",
        "click[large]",
        "click[description]",
        "click[features]",
        "click[buy now]",
      ],
    };
    const DESCRIPTION = {
      text: "Instruction: [SEP] find a red mug [SEP] Back to Search [SEP] < Prev [SEP] Description [SEP] A large mug of red stone",
      actions: ["click[back to search]", "click[< prev]"],
    };
    const path: [Transition["state"], string, Transition["next"]][] = [
      [SEARCH, "search[red mug]", RESULTS],
      [RESULTS, "click[b01]", ITEM],
      [ITEM, "click[description]", DESCRIPTION],
      [DESCRIPTION, "click[< prev]", ITEM],
      [ITEM, "click[back to search]", SEARCH],
    ];
    const step = ([state, action, next]: (typeof path)[number]) => ({
      state,
      action,
      next,
      reward: 0,
      done: false,
      success: false,
      valid: true,
    });
    const episode = (n: number): Transition[] =>
      path.map((p, i) => ({
        id: `e${n}-${i}`,
        domain: "shop",
        instruction: "find a red mug",
        source: "offline" as const,
        ...step(p),
      }));
    const memory = OfflineMemory.fromTransitions([1, 2, 3, 4, 5].flatMap(episode));
    expect(memory.goesBack("click[back to search]")).toBe(true);
    expect(memory.goesBack("click[< prev]")).toBe(true);
    const model = new RetrievalExperienceModel({ reasoning: true }, memory);
    const task = {
      id: "shop:test:1",
      domain: "shop",
      instruction: "find a red mug",
      split: "test" as const,
      origin: "seed" as const,
    };
    const demonstration = (i: number) => ({ ...episode(9)[i]!, score: 0.9 });

    // The search page has left the history shown: no page there is of its kind, so the analogue's page stands.
    const toSearch = await model.predict({
      task,
      history: [step(path[1]!), step(path[2]!), step(path[3]!)],
      state: ITEM,
      action: "click[back to search]",
      demonstrations: [demonstration(4)],
    });
    expect(toSearch.next).toEqual(SEARCH);

    // "< Prev" from the item page went to the listing; from its description it goes to the item page, as it did
    // from another product's description.
    const other = (text: string) =>
      text
        .replace("Red Stone Mug, Large", "Blue Glass Cup")
        .replace("large mug of red stone", "small cup of blue glass");
    const back = await model.predict({
      task,
      history: [step(path[1]!), step([ITEM, "click[< prev]", RESULTS]), step(path[1]!), step(path[2]!)],
      state: DESCRIPTION,
      action: "click[< prev]",
      demonstrations: [
        {
          ...demonstration(3),
          state: { ...DESCRIPTION, text: other(DESCRIPTION.text) },
          next: { ...ITEM, text: other(ITEM.text) },
        },
      ],
    });
    expect(back.next).toEqual(ITEM);
    expect(back.reasoning).not.toMatch(/in this episode the same action led/);
  });

  it("learns a run's real rollouts as it learnt the offline logs, never its synthetic ones (S2R's learnFromReal)", async () => {
    const memory = OfflineMemory.fromTransitions(await offlineTransitions(20));
    const model = new RetrievalExperienceModel({ reasoning: true }, memory);
    const { opened, input, steps } = await unseenEntry(memory, await offlineMemoryBuffer(shop, 20));
    const before = await model.predict(input);
    expect(before.next.text).not.toBe(opened.next.text);

    // Its own inventions teach the model nothing.
    model.learn(steps.map((t) => ({ ...t, source: "synthetic" as const })));
    expect((await model.predict(input)).next.text).toBe(before.next.text);

    const pages = memory.size.pages;
    model.learn(steps);
    expect(memory.size.pages).toBeGreaterThan(pages);
    const after = await model.predict(input);
    expect(after.next.text).toBe(opened.next.text);
    expect(after.confidence?.parts.match).toBe(1);
  });

  it("keeps a few examples of each kind of action and outcome, with which the model answers without retrieval (k = 0)", async () => {
    const transitions = await offlineTransitions(40);
    const memory = OfflineMemory.fromTransitions(transitions, shop.declarations);
    const buy = memory.prototypes("click[buy now]");
    // Ended purchases of different rewards, two at most of each: not only the experts' successes.
    expect(new Set(buy.map((d) => Math.round(d.reward * 10))).size).toBeGreaterThan(1);
    expect(buy.every((d) => d.done && d.score === 0)).toBe(true);
    expect(
      OfflineMemory.fromData(JSON.parse(JSON.stringify(memory.toData()))).prototypes("click[buy now]"),
    ).toEqual(buy);
    const step = transitions.find((t) => /^search\[/.test(t.action))!;
    const task = shop.task("train", 41);
    const input = { task, history: [], state: step.state, action: step.action, demonstrations: [] };
    const remembering = await new RetrievalExperienceModel({ reasoning: true }, memory).predict(input);
    // It lists results, as a search does, where a model that learnt nothing can only say nothing changes.
    expect(parseListing(remembering.next)).toBeDefined();
    const blank = await new RetrievalExperienceModel({ reasoning: true }).predict(input);
    expect(blank.next).toEqual(step.state);
  });

  it("learns whether a page tells all of the state: the shop's do, the household's hide each room's contents", async () => {
    const shopMemory = OfflineMemory.fromTransitions((await offlineMemoryBuffer(shop, 60)).transitions());
    expect(shopMemory.pagesTellAll).toBe(true);
    const rooms = [...(await offlineMemoryBuffer(household, 60)).transitions()];
    const householdMemory = OfflineMemory.fromTransitions(rooms);
    expect(householdMemory.pagesTellAll).toBe(false);
    expect(OfflineMemory.fromData(JSON.parse(JSON.stringify(householdMemory.toData()))).pagesTellAll).toBe(
      false,
    );
    // So the same words in another room are no evidence of what this room holds: the answer is not copied.
    const arrival = rooms.find((t) => t.action.startsWith("go to ") && / you see a /.test(t.next.text))!;
    const elsewhere = household.task("train", 500);
    const input = {
      task: elsewhere,
      history: [],
      state: arrival.state,
      action: arrival.action,
      demonstrations: [{ ...arrival, score: 1 }],
    };
    const sure = await new RetrievalExperienceModel({ reasoning: true }).predict(input);
    const learnt = await new RetrievalExperienceModel({ reasoning: true }, householdMemory).predict(input);
    expect(sure.reasoning).toContain("this very action in this very state");
    expect(learnt.reasoning).not.toContain("this very action in this very state");
  });
});

describe("what the memory keeps of whole episodes", () => {
  it("keeps what each real episode did before its ending, and hands it to a prediction thread", async () => {
    const buffer = await offlineMemoryBuffer(office, 30);
    const transitions = [...buffer.transitions()];
    const memory = OfflineMemory.fromTransitions(transitions);
    const endings = transitions.filter((t) => t.done && t.valid);
    expect(endings.length).toBeGreaterThan(10);
    for (const end of endings) {
      const trace = memory.traceBefore(end.id);
      expect(trace).toBeDefined();
      // The step before the ending is in its trace when it picked a record from a list; the ending itself is not.
      const before = transitions[transitions.indexOf(end) - 1];
      if (
        before &&
        before.next.text === end.state.text &&
        before.valid &&
        referentLines(before.state, before.action, "")
      )
        expect(trace).toContain(before.action);
    }
    const copy = OfflineMemory.fromData(JSON.parse(JSON.stringify(memory.toData())));
    expect(copy.traceBefore(endings[0]!.id)).toBe(memory.traceBefore(endings[0]!.id));
    expect(memory.traceBefore("no-such-step")).toBeUndefined();
  });

  it("does not take the same lookup made again for going back: it is the same question", () => {
    const page = (text: string) => ({ text, actions: ["lookup(a)", "lookup(b)"] });
    const [START, A, B] = [page("start"), page("answer a"), page("answer b")];
    const path: [Transition["state"], string, Transition["next"]][] = [
      [START, "lookup(a)", A],
      [A, "lookup(b)", B],
      [B, "lookup(a)", A],
      [A, "lookup(b)", B],
    ];
    const episodes = Array.from({ length: 12 }, (_, n) =>
      path.map(
        ([state, action, next], i): Transition => ({
          id: `e${n}-${i}`,
          domain: "d",
          instruction: `request ${n}`,
          source: "offline",
          state,
          action,
          next,
          reward: 0,
          done: i === path.length - 1,
          success: false,
          valid: true,
        }),
      ),
    ).flat();
    const memory = OfflineMemory.fromTransitions(episodes);
    expect(memory.goesBack("lookup(a)")).toBe(false);
    expect(memory.goesBack("lookup(b)")).toBe(false);
  });

  it("learns which kinds of action end an episode only by succeeding, and which request words no ending shows", async () => {
    const memory = OfflineMemory.fromTransitions([
      ...(await offlineMemoryBuffer(household, 80)).transitions(),
    ]);
    // A household episode goes on after an object is put in the wrong place.
    expect(memory.endsOnlyInSuccess("put * in/on *")).toBe(true);
    const copy = OfflineMemory.fromData(JSON.parse(JSON.stringify(memory.toData())));
    expect([...copy.unseenWords]).toEqual([...memory.unseenWords]);
    expect(copy.endsOnlyInSuccess("put * in/on *")).toBe(true);
    // A made-up workshop whose requests say how to do it ("quickly"), which no ending shows: it is no requirement.
    const endings = Array.from(
      { length: 6 },
      (_, n): Transition => ({
        id: `w${n}`,
        domain: "workshop",
        instruction: "place a gear on the bench quickly.",
        source: "offline",
        state: { text: `At the bench ${n}.\n[at: bench ${n} | carrying: gear 1]` },
        action: `place gear 1 on bench ${n}`,
        next: { text: `Placed.\n[at: bench ${n} | carrying: nothing]` },
        reward: 1,
        done: true,
        success: true,
        valid: true,
      }),
    );
    expect([...OfflineMemory.fromTransitions(endings).unseenWords]).toEqual(["quickly"]);
  });
  it("reads a step limit off failures that all stop at one length, and does not take such a stop for an ending", () => {
    // A made-up workshop: a fitter tries gears until one fits; an episode ends when one fits, or after 4 tries.
    const episode = (e: number, tries: number, fits: boolean): Transition[] =>
      Array.from({ length: tries }, (_, i) => {
        const last = i === tries - 1;
        return {
          id: `w${e}-${i}`,
          domain: "workshop",
          instruction: "fit a gear to the axle.",
          source: "offline",
          state: { text: `Try ${e}.${i}: the axle turns freely.` },
          action: `try gear ${i + 1}`,
          next: { text: last && fits ? "The gear fits." : `Try ${e}.${i + 1}: the axle turns freely.` },
          reward: last && fits ? 1 : 0,
          done: last,
          success: last && fits,
          valid: true,
        };
      });
    const timed = OfflineMemory.fromTransitions(
      Array.from({ length: 40 }, (_, e) => episode(e, e % 2 === 0 ? 4 : 1 + (e % 3), e % 2 === 1)).flat(),
    );
    expect(timed.timeLimit).toBe(4);
    expect(timed.endedByTime("w0-3")).toBe(true);
    expect(timed.endedByTime("w1-1")).toBe(false);
    expect(OfflineMemory.fromData(JSON.parse(JSON.stringify(timed.toData()))).endedByTime("w0-3")).toBe(true);
    // Failures at any length (a wrong gear breaks the axle): the episodes ended there.
    const broken = OfflineMemory.fromTransitions(
      Array.from({ length: 40 }, (_, e) => episode(e, 1 + (e % 4), false)).flat(),
    );
    expect(broken.timeLimit).toBe(undefined);
    expect(broken.endedByTime("w3-3")).toBe(false);
  });
});
