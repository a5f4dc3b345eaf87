import { describe, expect, it } from "vitest";
import { shop } from "../../envs/shop";
import {
  compileAmountBound,
  episodeTrace,
  goalEvidence as evidenceWithout,
  type OptionVocabulary,
  pageChoices,
  referentLines,
} from "./evidence";

/** The shop declares its price bound beside its environment (core/envs); the model reads it from there. */
const bound = compileAmountBound(shop.declarations!.amountBound!);
const goalEvidence = (
  instruction: string,
  page: Parameters<typeof evidenceWithout>[1],
  action: string,
  check = true,
  vocabulary?: OptionVocabulary,
  earlier?: string,
) => evidenceWithout(instruction, page, action, check, vocabulary, bound, earlier);

const instruction =
  "i need built in microphone kinetek bluetooth speaker in black color, and price lower than 140.00 dollars";
const itemPage = (selected: string, price = "$40.79") => ({
  text: `Instruction: [SEP] ${instruction} [SEP] Back to Search [SEP] < Prev [SEP] color [SEP] black [SEP] camo [SEP] size [SEP] small [SEP] x-small [SEP] Kinetek Edge Bluetooth Speaker, Built In Microphone [SEP] Price: ${price} [SEP] Rating: 4.3 [SEP] ${selected}Description [SEP] Features [SEP] Buy Now`,
  actions: [
    "click[back to search]",
    "click[< prev]",
    "click[black]",
    "click[camo]",
    "click[small]",
    "click[x-small]",
    "click[description]",
    "click[features]",
    "click[buy now]",
  ],
});

describe("goalEvidence", () => {
  it("counts the instruction's words in view and a price within its bound as met", () => {
    const e = goalEvidence(instruction, itemPage("Selected: color: black [SEP] "), "click[buy now]");
    // built, microphone, kinetek, bluetooth, speaker, black, color, and the price bound.
    expect(e).toMatchObject({ requirements: 8, met: 8, broken: [] });
    expect(e.score).toBe(1);
  });

  it("does not count the instruction the page echoes, nor options one could click, as met", () => {
    const e = goalEvidence(instruction, itemPage(""), "click[buy now]");
    expect(e.met).toBe(7);
  });

  it("breaks a requirement for an option chosen in a group the instruction speaks of but did not ask for", () => {
    const e = goalEvidence(instruction, itemPage("Selected: color: camo [SEP] "), "click[buy now]");
    // And the black it asked for, on offer, is not chosen.
    expect(e.broken).toEqual(["color: camo", "color: not chosen"]);
    expect(e.score).toBeCloseTo((7 - 2) / 8);
  });

  it("without reasoning (the ablation) only counts the instruction's words in view: nothing shows broken", () => {
    const camo = goalEvidence(instruction, itemPage("Selected: color: camo [SEP] "), "click[buy now]", false);
    // The bound's number is a word like any other, and not in view; no price or option is checked.
    expect(camo).toMatchObject({ requirements: 8, met: 6, broken: [] });
    const black = goalEvidence(
      instruction,
      itemPage("Selected: color: black [SEP] ", "$149.00"),
      "click[buy now]",
      false,
    );
    expect(black).toMatchObject({ requirements: 8, met: 7, broken: [] });
  });

  it("breaks one for an asked option on offer and not chosen, and for a price above the bound", () => {
    const e = goalEvidence(instruction, itemPage("", "$149.00"), "click[buy now]");
    expect(e.broken).toEqual(["above the bound 140", "color: not chosen"]);
    expect(e.score).toBeCloseTo((6 - 2) / 8);
  });

  it("leaves groups the instruction says nothing about free, and reads labels as whole phrases", () => {
    const e = goalEvidence(
      instruction,
      itemPage("Selected: color: black; size: x-small [SEP] "),
      "click[buy now]",
    );
    expect(e.broken).toEqual([]);
    const sized = goalEvidence(
      `${instruction.replace(" color,", " color and in size small,")}`,
      itemPage("Selected: color: black; size: x-small [SEP] "),
      "click[buy now]",
    );
    // "small" is not chosen by choosing "x-small".
    expect(sized.broken).toEqual(["size: x-small", "size: not chosen"]);
  });

  it("finds no choices in prose states (the household's)", () => {
    const e = goalEvidence(
      "put a clean apple in the fridge",
      {
        text: "You are in the middle of a room.\nYou see a fridge 1 and a countertop 1.",
        actions: ["go to fridge 1", "go to countertop 1"],
      },
      "go to fridge 1",
    );
    expect(e.broken).toEqual([]);
    expect(e.met).toBe(1);
  });
  it("with the domain's option values, breaks one where a group does not offer the value the instruction asks of it", () => {
    const navy = instruction.replace("in black color", "in navy color");
    const colors = new Set(["black", "camo", "navy", "natural"]);
    const sizes = new Set(["small", "x-small", "140"]);
    const vocabulary = (group: string) => (group === "color" ? colors : group === "size" ? sizes : undefined);
    // The page echoes its own instruction.
    const blank = itemPage("");
    const navyPage = { ...blank, text: blank.text.replace(instruction, navy) };
    const e = goalEvidence(navy, navyPage, "click[buy now]", true, vocabulary);
    // Navy is a color, and this page's colors are black and camo: the purchase cannot be what was asked.
    expect(e.broken).toEqual(["color: navy not among the choices"]);
    // Without the vocabulary nothing tells navy from any other word of the instruction.
    expect(goalEvidence(navy, navyPage, "click[buy now]").broken).toEqual([]);
    // Nor without reasoning.
    expect(goalEvidence(navy, navyPage, "click[buy now]", false, vocabulary).broken).toEqual([]);
    // The bound's number is a price, not a size; black is on offer and chosen: nothing broken.
    expect(
      goalEvidence(instruction, itemPage("Selected: color: black [SEP] "), "click[buy now]", true, vocabulary)
        .broken,
    ).toEqual([]);
    // A value the page shows outside its buttons is a word of its title, not an option asked for.
    const natural = instruction
      .replace("built in microphone", "natural finish")
      .replace(" in black color", "");
    const titled = itemPage("");
    const page = {
      ...titled,
      text: titled.text.replace(instruction, natural).replace("Built In Microphone", "Natural Finish"),
    };
    expect(goalEvidence(natural, page, "click[buy now]", true, vocabulary).broken).toEqual([]);
  });

  it("reads a page's named groups of options, and no label, price or sentence as one", () => {
    const page = itemPage("Selected: color: black [SEP] ");
    expect(pageChoices(page)).toEqual([
      { name: "color", options: ["black", "camo"] },
      { name: "size", options: ["small", "x-small"] },
    ]);
  });
});

describe("the records an action names", () => {
  const request = "Cancel the quarterly review on Tuesday.";
  const day = {
    text: [
      'list_events(day="tuesday") found 3 events:',
      "7987 | tuesday 13:00 | design sync | with Farid Okafor",
      "3970 | tuesday 14:00 | quarterly review | with Tara Silva",
      "3218 | tuesday 15:00 | team lunch | with Sami Kowalski",
    ].join("\n"),
  };

  it("reads what the named record says, not the whole list", () => {
    const right = goalEvidence(request, day, "cancel_event(3970)");
    const wrong = goalEvidence(request, day, "cancel_event(7987)");
    expect(right.broken).toEqual([]);
    expect(right.score).toBeGreaterThan(wrong.score);
    // The whole page holds the request's words whichever event is named; only the named line tells them apart.
    expect(wrong.met).toBeLessThan(right.met);
  });

  it("breaks a requirement when another record of the list fits the request better", () => {
    const wrong = goalEvidence(request, day, "cancel_event(7987)");
    expect(wrong.broken).toEqual([expect.stringContaining("quarterly review")]);
    // Without the reasoning nothing shows broken (the ablation reads words only).
    expect(goalEvidence(request, day, "cancel_event(7987)", false).broken).toEqual([]);
  });

  it("reads a page whole when it is prose and a status line, or the action names nothing on it", () => {
    const room = {
      text: "You arrive at countertop 1. On the countertop 1, you see a apple 1.\n[location: countertop 1 | holding: nothing]",
    };
    expect(referentLines(room, "take apple 1 from countertop 1", "")).toBeUndefined();
    expect(referentLines(day, 'list_events(day="monday")', "")).toBeUndefined();
    expect(referentLines(day, "cancel_event(3970)", "")?.named).toEqual([
      "3970 | tuesday 14:00 | quarterly review | with Tara Silva",
    ]);
  });
});

describe("what an episode did before a step", () => {
  const notes = {
    text: [
      'list_files(folder="/notes") found 3 files:',
      "/notes/chiara-followups.txt | follow-up notes | by Chiara Sato | 1 KB",
      "/notes/umar-followups.txt | follow-up notes | by Umar Fischer | 1 KB",
      "/notes/budget-plan.txt | budget plan | by Elena Petrov | 34 KB",
    ].join("\n"),
  };
  const request = "Close the ticket that the follow-up notes of Chiara Sato mark as done.";
  const page = (owner: string) => ({
    text: `read_file: follow-up notes of ${owner}\n963 | outage ticket | done, close it\n212 | billing ticket | handed to engineering, leave it`,
    actions: ["close_ticket(963)", "close_ticket(212)"],
  });

  it("keeps the records each action named, not the whole pages it saw", () => {
    const trace = episodeTrace([
      { state: notes, action: 'read_file("/notes/umar-followups.txt")', valid: true },
      { state: notes, action: "delete_file(nowhere)", valid: false },
      { state: notes, action: 'list_files(folder="/drafts")', valid: true },
    ]);
    expect(trace).toContain("by Umar Fischer");
    expect(trace).not.toContain("Chiara");
    expect(trace).not.toContain("nowhere");
    // A lookup picks nothing from the list it was made on.
    expect(trace).not.toContain("/drafts");
  });

  it("tells an ending after reading the notes asked for from one after reading someone else's", () => {
    const read = (path: string) =>
      episodeTrace([{ state: notes, action: `read_file("${path}")`, valid: true }]);
    const right = goalEvidence(
      request,
      page("Chiara Sato"),
      "close_ticket(963)",
      true,
      undefined,
      read("/notes/chiara-followups.txt"),
    );
    const wrong = goalEvidence(
      request,
      page("Umar Fischer"),
      "close_ticket(963)",
      true,
      undefined,
      read("/notes/umar-followups.txt"),
    );
    expect(right.score).toBeGreaterThan(wrong.score);
    // The list the agent read from shows both people: read whole, the pages would not tell the two apart.
    const seen = goalEvidence(
      request,
      page("Umar Fischer"),
      "close_ticket(963)",
      true,
      undefined,
      notes.text,
    );
    expect(seen.score).toBeGreaterThanOrEqual(right.score);
  });

  it("takes nothing from a line that names every place there is: no record was picked from among others", () => {
    const room = {
      text: "You stand in a workshop. Around you: a bench 1, a rack 1, a shelf 2.\nYour job: put a gear on the rack.\n[at: door | carrying: nothing]",
      actions: ["walk to bench 1", "walk to rack 1", "walk to shelf 2"],
    };
    expect(episodeTrace([{ state: room, action: "walk to rack 1", valid: true }])).toBe("");
  });

  it("where pages do not tell all, reads an ending from what the agent has and where it is, not what is in view", () => {
    const request = "put a gear on the rack.";
    const state = { text: "At the rack 1 you see a gear 2.\n[at: rack 1 | carrying: bolt 1]" };
    const action = "put bolt 1 on rack 1";
    const inView = evidenceWithout(request, state, action, true);
    const held = evidenceWithout(request, state, action, true, undefined, undefined, "");
    expect(inView.met).toBe(held.met + 1);
    const right = evidenceWithout(
      request,
      { text: "At the rack 1 you see a bolt 2.\n[at: rack 1 | carrying: gear 1]" },
      "put gear 1 on rack 1",
      true,
      undefined,
      undefined,
      "",
    );
    expect(right.score).toBeGreaterThan(held.score);
  });

  it("leaves out of the requirements the words that successful endings never show", () => {
    const request = "put two gears on the rack.";
    const state = { text: "[at: rack 1 | carrying: gears 1]" };
    const all = evidenceWithout(request, state, "put gears 1 on rack 1", true, undefined, undefined, "");
    const shown = evidenceWithout(
      request,
      state,
      "put gears 1 on rack 1",
      true,
      undefined,
      undefined,
      "",
      new Set(["two"]),
    );
    expect(all.score).toBeLessThan(1);
    expect(shown.requirements).toBe(all.requirements - 1);
    expect(shown.score).toBe(1);
  });
});
