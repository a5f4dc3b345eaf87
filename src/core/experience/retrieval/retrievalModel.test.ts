import { describe, expect, it } from "vitest";
import { shop } from "../../envs/shop";
import type { Demonstration } from "../../replay/buffer";
import type { Task } from "../../types";
import { OfflineMemory } from "./offlineMemory";
import { RetrievalExperienceModel } from "./retrievalModel";

const task: Task = {
  id: "household:test:1",
  domain: "household",
  instruction: "put a clean mug in cabinet",
  split: "test",
  origin: "seed",
};

function demo(
  id: string,
  state: string,
  action: string,
  next: string,
  extra: Partial<Demonstration> = {},
): Demonstration {
  return {
    id,
    domain: "household",
    instruction: "put a clean plate in drawer",
    source: "offline",
    taskId: "household:train:9",
    state: { text: state },
    action,
    next: { text: next },
    reward: 0,
    done: false,
    success: false,
    valid: true,
    score: 0.8,
    ...extra,
  };
}

const openCabinet = demo(
  "d1",
  "You arrive at cabinet 2. The cabinet 2 is closed.",
  "open cabinet 2",
  "You open the cabinet 2. The cabinet 2 is open. In it, you see nothing.",
);
const goTo = demo(
  "d2",
  "You arrive at sofa 1.",
  "go to sidetable 1",
  "You arrive at sidetable 1. On the sidetable 1, you see a book 1.",
);

describe("retrieval experience model", () => {
  const model = new RetrievalExperienceModel({ reasoning: true });

  it("applies the invalid-action rule: unchanged state, reward 0, and says why", async () => {
    const state = {
      text: "You arrive at drawer 1. The drawer 1 is closed.",
      actions: ["open drawer 1", "go to sofa 1"],
    };
    const p = await model.predict({
      task,
      history: [],
      state,
      action: "take mug 1 from drawer 1",
      demonstrations: [openCabinet],
    });
    expect(p).toMatchObject({ valid: false, reward: 0, done: false, next: state });
    expect(p.reasoning).toMatch(/not among the admissible actions/);
  });

  it("adapts the best analogue's next state and cites it", async () => {
    const state = { text: "You arrive at drawer 1. The drawer 1 is closed.", actions: ["open drawer 1"] };
    const p = await model.predict({
      task,
      history: [],
      state,
      action: "open drawer 1",
      demonstrations: [goTo, openCabinet],
    });
    expect(p.valid).toBe(true);
    expect(p.next.text).toBe("You open the drawer 1. The drawer 1 is open. In it, you see nothing.");
    expect(p.reasoning).toMatch(/Demonstration 2/);
    expect(p.reasoning).toMatch(/"cabinet 2" → "drawer 1"/);
    expect(p.reward).toBe(0);
    expect(p.done).toBe(false);
  });

  it("copies an exact match of state and action verbatim, with its outcome", async () => {
    const finish = demo(
      "d3",
      "You arrive at cabinet 1. You are holding mug 1.",
      "put mug 1 in/on cabinet 1",
      "You put the mug 1 in/on the cabinet 1.",
      {
        reward: 1,
        done: true,
        success: true,
      },
    );
    const p = await model.predict({
      task,
      history: [],
      state: finish.state,
      action: finish.action,
      demonstrations: [goTo, finish],
    });
    expect(p).toMatchObject({ next: finish.next, reward: 1, done: true, success: true, valid: true });
  });

  it("is deterministic and drops the trace when reasoning is ablated", async () => {
    const input = {
      task,
      history: [],
      state: { text: "You arrive at drawer 3." },
      action: "open drawer 3",
      demonstrations: [openCabinet, goTo],
    };
    const a = await model.predict(input);
    const b = await model.predict(input);
    expect({ ...a, latencyMs: 0 }).toEqual({ ...b, latencyMs: 0 });
    const silent = await new RetrievalExperienceModel({ reasoning: false }).predict(input);
    expect(silent.reasoning).toBe("");
    expect(silent.next.text).toBe(a.next.text);
  });

  it("without demonstrations it predicts no visible change and says there is no evidence", async () => {
    const state = { text: "You arrive at drawer 3." };
    const p = await model.predict({ task, history: [], state, action: "open drawer 3", demonstrations: [] });
    expect(p).toMatchObject({ next: state, reward: 0, done: false, valid: true });
    expect(p.reasoning).toMatch(/No demonstrations/);
  });

  it("estimates a terminal reward from demonstrations with similar progress towards the instruction", async () => {
    const buyGood = demo("g", "item: Red Cotton Shirt, size M [SEP] Buy Now", "click[buy now]", "Thank you", {
      instruction: "red cotton shirt size m",
      reward: 1,
      done: true,
      success: true,
    });
    const buyBad = demo("b", "item: blue wool hat [SEP] Buy Now", "click[buy now]", "Thank you", {
      instruction: "red cotton shirt size m",
      reward: 0,
      done: true,
    });
    const shopTask: Task = { ...task, instruction: "green linen shirt size l" };
    const matching = await model.predict({
      task: shopTask,
      history: [],
      state: { text: "item: Green Linen Shirt, size L [SEP] Buy Now" },
      action: "click[buy now]",
      demonstrations: [buyGood, buyBad],
    });
    expect(matching).toMatchObject({ done: true, reward: 1, success: true });
    const wrong = await model.predict({
      task: shopTask,
      history: [],
      state: { text: "item: black leather boots [SEP] Buy Now" },
      action: "click[buy now]",
      demonstrations: [buyGood, buyBad],
    });
    expect(wrong).toMatchObject({ done: true, reward: 0, success: false });
  });

  it("keeps a graded estimate in a domain whose real episodes end with graded rewards: no rounding to 0 or 1", async () => {
    const shopTask: Task = { ...task, instruction: "green linen shirt size l with short sleeves" };
    const endings = [
      demo(
        "g",
        "item: Red Cotton Shirt, size M, Short Sleeves [SEP] Buy Now",
        "click[buy now]",
        "Thank you",
        {
          instruction: "red cotton shirt size m with short sleeves",
          reward: 1,
          done: true,
          success: true,
        },
      ),
      demo("b", "item: blue wool hat [SEP] Buy Now", "click[buy now]", "Thank you", {
        instruction: "red cotton shirt size m with short sleeves",
        reward: 0,
        done: true,
      }),
    ];
    // The page shows the shirt, not its sleeves: less of the instruction than the expert's purchase showed.
    const input = {
      task: shopTask,
      history: [],
      state: { text: "item: Green Linen Shirt, size L [SEP] Buy Now" },
      action: "click[buy now]",
      demonstrations: endings,
    };
    // Demonstrations alone show only 0 and 1: the outcome is the likelier one. A purchase showing all the
    // successful one showed is paid in full; one showing clearly less of its goal is no success.
    const shown = {
      ...input,
      state: { text: "item: Green Linen Shirt, size L, Short Sleeves [SEP] Buy Now" },
    };
    expect(await model.predict(shown)).toMatchObject({ done: true, reward: 1 });
    expect(await model.predict(input)).toMatchObject({ done: true, reward: 0 });
    // The domain's logs (the offline memory) hold a partial reward: the estimate stays what the evidence says.
    const partial = demo("p", "item: Tan Linen Shirt [SEP] Buy Now", "click[buy now]", "Thank you", {
      instruction: "tan linen shirt size s",
      reward: 0.5,
      done: true,
    });
    const memory = OfflineMemory.fromTransitions([partial]);
    expect(memory.gradedOutcomes).toBe(true);
    expect(OfflineMemory.fromData(JSON.parse(JSON.stringify(memory.toData()))).gradedOutcomes).toBe(true);
    const graded = await new RetrievalExperienceModel({ reasoning: true }, memory).predict(input);
    expect(graded.done).toBe(true);
    expect(graded.reward).toBeGreaterThan(0.5);
    expect(graded.reward).toBeLessThan(0.95);
    // A domain of successes and failures only keeps its binary outcomes.
    expect(OfflineMemory.fromTransitions(endings).gradedOutcomes).toBe(false);
  });

  it("uses the agent's own history: the same action earlier in the episode shows the same place again", async () => {
    const earlier = {
      state: { text: "You arrive at sofa 1." },
      action: "go to desk 1",
      next: { text: "You arrive at desk 1. On the desk 1, you see a mug 3." },
      reward: 0,
      done: false,
      success: false,
      valid: true,
    };
    const input = {
      task,
      history: [earlier],
      state: { text: "You arrive at bed 1." },
      action: "go to desk 1",
      demonstrations: [goTo],
    };
    const withHistory = await model.predict(input);
    expect(withHistory.next.text).toBe("You arrive at desk 1. On the desk 1, you see a mug 3.");
    expect(withHistory.reasoning).toMatch(/1 step ago in this episode/);
    const without = await model.predict({ ...input, history: [] });
    expect(without.next.text).not.toContain("mug 3");
  });

  it("answers an input it has answered before as a fresh model would, whatever path led to the page", async () => {
    // A history step is a transition's fields; the fixture's demonstrations carry them.
    const step = (from: string, action: string, to: string) => demo(`step-${action}`, from, action, to);
    const state = { text: "You arrive at bed 1." };
    const histories = [
      [],
      [step("You arrive at sofa 1.", "go to bed 1", state.text)],
      [
        step("You arrive at sofa 1.", "go to armchair 1", "You arrive at armchair 1."),
        step("x", "go to bed 1", state.text),
      ],
      // The same action earlier: a revisit, which the answer reads (and at another distance).
      [
        step(
          "You arrive at sofa 1.",
          "go to desk 1",
          "You arrive at desk 1. On the desk 1, you see a mug 3.",
        ),
      ],
      [
        step(
          "You arrive at sofa 1.",
          "go to desk 1",
          "You arrive at desk 1. On the desk 1, you see a mug 3.",
        ),
        step("You arrive at desk 1.", "go to bed 1", state.text),
      ],
    ];
    const remembering = new RetrievalExperienceModel({ reasoning: true });
    const without = ({ latencyMs: _, ...p }: { latencyMs: number }) => p;
    for (const round of [0, 1])
      for (const history of histories) {
        const input = { task, history, state, action: "go to desk 1", demonstrations: [goTo] };
        const fresh = await new RetrievalExperienceModel({ reasoning: true }).predict(input);
        expect(without(await remembering.predict(input)), `round ${round}, ${history.length} steps`).toEqual(
          without(fresh),
        );
      }
  });
});

describe("retrieval experience model, outcome of a purchase", () => {
  const model = new RetrievalExperienceModel({ reasoning: true });
  const page = (instruction: string, title: string, selected: string, price = "$40.00") => ({
    text: `Instruction: [SEP] ${instruction} [SEP] Back to Search [SEP] < Prev [SEP] color [SEP] black [SEP] camo [SEP] ${title} [SEP] Price: ${price} [SEP] Selected: color: ${selected} [SEP] Buy Now`,
    actions: ["click[back to search]", "click[< prev]", "click[black]", "click[camo]", "click[buy now]"],
  });
  const bought = (instruction: string, selected: string, reward: number, i: number): Demonstration => ({
    id: `buy${i}`,
    domain: "shop",
    instruction,
    source: "offline",
    taskId: `shop:train:${i}`,
    state: page(instruction, "Kinetek Edge Bluetooth Speaker, Built In Microphone", selected),
    action: "click[buy now]",
    next: { text: "Thank you for shopping with us!" },
    reward,
    done: true,
    success: reward === 1,
    valid: true,
    score: 0.9,
  });
  const asked = (color: string) =>
    `i need built in microphone kinetek bluetooth speaker in ${color} color, and price lower than 90.00 dollars`;
  // Experts bought what was asked; a careless buyer once chose camo for a black speaker and got a partial reward.
  const demonstrations = [
    bought(asked("black"), "black", 1, 1),
    bought(asked("camo"), "camo", 1, 2),
    bought(asked("black"), "black", 1, 3),
    bought(asked("black"), "camo", 0.67, 4),
  ];
  const shopTask: Task = { ...task, id: "shop:test:1", domain: "shop", instruction: asked("black") };
  const predict = (selected: string) =>
    model.predict({
      task: shopTask,
      history: [],
      state: page(asked("black"), "Kinetek Edge Bluetooth Speaker, Built In Microphone", selected),
      action: "click[buy now]",
      demonstrations,
    });

  it("predicts success for a purchase that shows every requirement met", async () => {
    const p = await predict("black");
    expect(p).toMatchObject({ done: true, success: true });
    expect(p.reward).toBeGreaterThan(0.9);
  });

  it("does not let a purchase with an option the instruction did not ask for pass as a success", async () => {
    const p = await predict("camo");
    expect(p).toMatchObject({ done: true, success: false });
    // It is rewarded like the demonstration that broke a requirement too, not like the experts.
    expect(p.reward).toBeLessThan(0.8);
  });

  it("charges a purchase that skipped an asked choice for it, even when every demonstration made its choice", async () => {
    const skipped = await model.predict({
      task: shopTask,
      history: [],
      // Nothing selected: the page offers black, and the instruction asks for it.
      state: {
        ...page(asked("black"), "Kinetek Edge Bluetooth Speaker, Built In Microphone", "black"),
        text: page(
          asked("black"),
          "Kinetek Edge Bluetooth Speaker, Built In Microphone",
          "black",
        ).text.replace(" [SEP] Selected: color: black", ""),
      },
      action: "click[buy now]",
      // Only the experts: none of them broke a requirement.
      demonstrations: demonstrations.slice(0, 3),
    });
    expect(skipped).toMatchObject({ done: true, success: false });
    // Its page shows 75% of the instruction net of the broken choice, so the experts' 1 scales to 0.75; the choice
    // none of them skipped costs a sixth of that again, as an outcome reward counts one requirement of about six.
    expect(skipped.reward).toBeCloseTo(0.75 * (5 / 6), 3);
  });

  it("does not pay a purchase in full where the page does not offer the color asked, once it knows the domain's colors", async () => {
    const navyTask: Task = { ...shopTask, instruction: asked("navy") };
    const blank = page(asked("navy"), "Kinetek Edge Bluetooth Speaker, Built In Microphone", "black");
    const input = {
      task: navyTask,
      history: [],
      state: { ...blank, text: blank.text.replace(" [SEP] Selected: color: black", "") },
      action: "click[buy now]",
      demonstrations: demonstrations.slice(0, 3),
    };
    const naive = await model.predict(input);
    // A page that learnt navy as a color from another speaker's page.
    const navyPage = {
      text: "Instruction: [SEP] x [SEP] Back to Search [SEP] < Prev [SEP] color [SEP] navy [SEP] black [SEP] Buy Now",
      actions: ["click[back to search]", "click[< prev]", "click[navy]", "click[black]", "click[buy now]"],
    };
    const memory = OfflineMemory.fromTransitions(
      [
        {
          ...demonstrations[0]!,
          id: "seen",
          state: navyPage,
          action: "click[navy]",
          next: navyPage,
          done: false,
        },
      ],
      shop.declarations,
    );
    const informed = await new RetrievalExperienceModel({ reasoning: true }, memory).predict(input);
    expect(naive).toMatchObject({ done: true, success: true });
    expect(informed).toMatchObject({ done: true, success: false });
    expect(informed.reasoning).toContain("color: navy not among the choices");
    expect(informed.reward).toBeLessThan(naive.reward - 0.1);
  });

  it("checks the price bound only with reasoning: without it, a purchase above the bound passes like the experts'", async () => {
    const above = (reasoning: boolean) =>
      new RetrievalExperienceModel(
        { reasoning },
        OfflineMemory.fromTransitions([], shop.declarations),
      ).predict({
        task: shopTask,
        history: [],
        state: page(asked("black"), "Kinetek Edge Bluetooth Speaker, Built In Microphone", "black", "$95.00"),
        action: "click[buy now]",
        demonstrations,
      });
    expect(await above(true)).toMatchObject({ done: true, success: false });
    const ablated = await above(false);
    expect(ablated).toMatchObject({ done: true, success: true, reasoning: "" });
  });
});

describe("whether an action ends the episode, where that depends on what it achieves", () => {
  // A made-up workshop: placing a part ends an episode only where the request asked for it there.
  const request: Task = {
    id: "workshop:test:1",
    domain: "workshop",
    instruction: "place a gear on the bench.",
    split: "test",
    origin: "seed",
  };
  const placed = (
    id: string,
    instruction: string,
    part: string,
    place: string,
    ended: boolean,
    score: number,
  ) =>
    demo(
      id,
      `At the ${place} 1. Carrying ${part} 1.`,
      `place ${part} 1 on ${place} 1`,
      `${part} 1 is on the ${place} 1.`,
      {
        domain: "workshop",
        instruction,
        taskId: `workshop:train:${id}`,
        done: ended,
        success: ended,
        reward: ended ? 1 : 0,
        score,
      },
    );
  // The episodes that ended are retrieved first: by likeness alone, every placing ends.
  const demonstrations = [
    placed("a", "place a bolt on the shelf.", "bolt", "shelf", true, 0.9),
    placed("b", "place a nut on the rack.", "nut", "rack", true, 0.9),
    placed("c", "place a pin on the desk.", "pin", "floor", false, 0.6),
    placed("d", "place a cog on the table.", "cog", "chair", false, 0.6),
  ];
  const model = new RetrievalExperienceModel({ reasoning: true });
  const predict = (place: string) =>
    model.predict({
      task: request,
      history: [],
      state: { text: `At the ${place} 1. Carrying gear 1.` },
      action: `place gear 1 on ${place} 1`,
      demonstrations,
    });

  it("goes on after a part is placed where the request did not ask, as placings like it went on", async () => {
    const wrong = await predict("chair");
    expect(wrong.done).toBe(false);
    expect(wrong.reward).toBe(0);
  });

  it("ends, in success, when the part is placed where the request asked", async () => {
    const right = await predict("bench");
    expect(right.done).toBe(true);
    expect(right.success).toBe(true);
  });
});

describe("where each task has its own world, the analogue whose look bore on a like request", () => {
  // A made-up desk: the same look at the same page shows each task's own files, so pages do not tell all.
  const people = ["Keiko Alvarez", "Umar Fischer", "Ines Tanaka", "Olga Petrov", "Yusuf Sato", "Vera Rossi"];
  const listing = (person: string, other: string) =>
    `found 2 files:\n/notes/${person.split(" ")[0]!.toLowerCase()}-followups.txt | follow-up notes | by ${person}\n/notes/travel-memo.txt | travel memo | by ${other}`;
  const look = 'list_files(folder="/notes")';
  const notesOf = (person: string) => `Close the ticket that the follow-up notes of ${person} mark as done.`;
  const offline: Demonstration[] = Array.from({ length: 24 }, (_, i) => {
    const person = people[i % people.length]!;
    return demo(`desk-${i}`, "Desk assistant.", look, listing(person, people[(i + 1) % people.length]!), {
      domain: "desk",
      instruction: notesOf(person),
      taskId: `desk:train:${i}`,
    });
  });
  const memory = OfflineMemory.fromTransitions(offline);
  const request: Task = {
    id: "desk:test:1",
    domain: "desk",
    instruction: notesOf("Rosa Brennan"),
    split: "test",
    origin: "seed",
  };
  // Retrieved first: a request of another kind, whose look showed its own world's notes.
  const unlike = demo("unlike", "Desk assistant.", look, listing("Nils Dubois", "Dana Haddad"), {
    domain: "desk",
    instruction: "Delete the travel memo that Dana Haddad keeps in /notes.",
    taskId: "desk:train:99",
    score: 0.95,
  });
  const like = { ...offline[0]!, score: 0.7 };

  it("learns that the desk's pages do not tell all", () => {
    expect(memory.pagesTellAll).toBe(false);
  });

  it("shows this request's notes, rewritten from the like request's look, over a closer analogue's world", async () => {
    const model = new RetrievalExperienceModel({ reasoning: true }, memory);
    const predicted = await model.predict({
      task: request,
      history: [],
      state: { text: "Desk assistant." },
      action: look,
      demonstrations: [unlike, like],
    });
    // The file's name is the like request's ("keiko-followups.txt"): a path spelt from part of a name is not
    // rewritten word by word (tried: revisits then showed other pages).
    expect(predicted.next.text).toContain("| follow-up notes | by Rosa Brennan");
    expect(predicted.next.text).not.toContain("Nils Dubois");
  });
});

describe("one change of two asked, where a change ends an episode only when the request is done", () => {
  // A made-up desk whose days differ from task to task behind the same first page (pages do not tell all), and
  // whose real cancellations failed only on another meeting than the one asked for.
  const day = (sync: number, lunch: number, who: string) =>
    `found 2 meetings:\n${sync} | monday 9:00 | design sync | with ${who}\n${lunch} | monday 12:00 | team lunch | with Bo Lind`;
  const names = ["Ada Berg", "Cy Holm", "Di Moss", "Ed Lund", "Fay Roth", "Gus Dahl"];
  const episodes: Demonstration[] = [];
  for (let i = 0; i < 24; i++) {
    const sync = 100 + i;
    const lunch = 200 + i;
    const page = day(sync, lunch, names[i % names.length]!);
    const right = i % 2 === 0;
    const common = {
      domain: "desk",
      instruction: "Cancel the design sync on Monday.",
      taskId: `desk:train:${i}`,
    };
    episodes.push(
      demo(`look-${i}`, "Desk assistant.", 'list_meetings(day="monday")', page, common),
      demo(
        `cancel-${i}`,
        page,
        `cancel_meeting(${right ? sync : lunch})`,
        right
          ? `cancel_meeting(${sync}): design sync cancelled\nAll requested changes are made.`
          : `cancel_meeting(${lunch}): team lunch cancelled\nReview: that change was not requested.`,
        { ...common, done: true, success: right, reward: right ? 1 : 0 },
      ),
    );
  }
  const memory = OfflineMemory.fromTransitions(episodes);
  const request: Task = {
    id: "desk:test:1",
    domain: "desk",
    instruction: "Close the open refund ticket from Hal Voss, and cancel the design sync on Monday.",
    split: "test",
    origin: "seed",
  };
  const page = day(300, 301, "Ivy Nord");
  const predict = (id: number) =>
    new RetrievalExperienceModel({ reasoning: true }, memory).predict({
      task: request,
      history: [],
      state: { text: page },
      action: `cancel_meeting(${id})`,
      demonstrations: episodes.filter((d) => d.id.startsWith("cancel-")).slice(0, 8),
    });

  it("learns that the desk's cancellations failed only on other meetings", () => {
    expect(memory.pagesTellAll).toBe(false);
    expect(memory.failsOnlyOnAnotherRecord("cancel_meeting(*)")).toBe(true);
  });

  it("goes on, unpaid, after the asked meeting is cancelled while the asked ticket is still open", async () => {
    const half = await predict(300);
    expect(half).toMatchObject({ done: false, success: false, reward: 0 });
    expect(half.reasoning).toContain("the episode goes on");
  });

  it("still ends, failed, when another meeting is cancelled", async () => {
    expect(await predict(301)).toMatchObject({ done: true, success: false, reward: 0 });
  });
});
