import { describe, expect, it } from "vitest";
import { extractJson } from "../llm/jsonReply";
import type { Demonstration } from "../replay/buffer";
import type { Step, Task } from "../types";
import { buildExperiencePrompt, EXPERIENCE_PROMPT_VERSION, PROMPT_LIMITS, repairMessages } from "./prompt";
import { parseExperienceReply } from "./reply";

const task: Task = {
  id: "shop:test:1",
  domain: "shop",
  instruction: "i need a red mug under 20 dollars",
  split: "test",
  origin: "seed",
};
const step = (action: string): Step => ({
  state: { text: "s" },
  action,
  next: { text: "n" },
  reward: 0,
  done: false,
  success: false,
  valid: action !== "bad",
});
const demo = (id: string): Demonstration => ({
  id,
  domain: "shop",
  instruction: "x",
  source: "offline",
  state: { text: `state of ${id}` },
  action: `click[${id}]`,
  next: { text: `next of ${id}` },
  reward: 0.5,
  done: true,
  success: false,
  valid: true,
  score: 0.9,
});

describe("experience prompt", () => {
  it("puts what a group's rollouts share first: two episodes at the same state differ only after the demonstrations", () => {
    const at = (history: Step[]) =>
      buildExperiencePrompt(
        {
          task,
          history,
          state: { text: "page" },
          action: "click[buy now]",
          demonstrations: [demo("d1"), demo("d2")],
        },
        { k: 2, historyWindow: 3, reasoning: true },
      )
        .map((m) => m.content)
        .join("\n");
    const one = at(["search[red mug]", "click[b01]"].map(step));
    const other = at(["search[mug red]", "click[b02]", "click[< prev]"].map(step));
    let shared = 0;
    while (one[shared] === other[shared]) shared++;
    // Instructions, task and both demonstrations are one cacheable prefix; the histories are where they part.
    expect(one.slice(0, shared)).toContain("### Demonstration 2");
    expect(one.slice(0, shared).endsWith("## History (")).toBe(true);
  });

  it("puts task, k demonstrations with outcomes, a bounded history, then state and action last", () => {
    const history = ["search[red mug]", "click[b01]", "bad", "click[< prev]", "click[b02]"].map(step);
    const [system, user] = buildExperiencePrompt(
      {
        task,
        history,
        state: { text: "page", actions: ["click[buy now]", "click[< prev]"] },
        action: "click[buy now]",
        demonstrations: [demo("d1"), demo("d2"), demo("d3")],
      },
      { k: 2, historyWindow: 3, reasoning: true },
    );
    expect(system!.role).toBe("system");
    expect(system!.content).toMatch(
      /not possible in the current state[\s\S]*state stays exactly the same, reward is 0/,
    );
    expect(system!.content).toMatch(/"reasoning"/);
    const text = user!.content;
    expect(text.indexOf("## Task")).toBeLessThan(text.indexOf("### Demonstration 1"));
    expect(text.indexOf("### Demonstration 2")).toBeLessThan(text.indexOf("## History"));
    expect(text).toContain("## History (5 steps so far, last 3 shown)");
    expect(text).toContain("3. action: bad -> reward 0 (invalid)");
    expect(text).not.toContain("search[red mug]");
    expect(text).toContain("### Demonstration 2 (similarity 0.90, offline)");
    expect(text).not.toContain("Demonstration 3");
    expect(text).toContain("reward: 0.5, done: true, success: false, valid: true");
    expect(
      text.endsWith(
        "## Current state\npage\nadmissible actions: click[buy now] | click[< prev]\n\n## Action\nclick[buy now]",
      ),
    ).toBe(true);
    expect(EXPERIENCE_PROMPT_VERSION).toMatch(/^dreamgym-exp-v\d+$/);
  });

  it("leaves out what the ablations switch off and cuts long states", () => {
    const [system, user] = buildExperiencePrompt(
      {
        task,
        history: [step("a")],
        state: { text: "x".repeat(PROMPT_LIMITS.stateChars + 50) },
        action: "look",
        demonstrations: [demo("d1")],
      },
      { k: 0, historyWindow: 0, reasoning: false },
    );
    expect(user!.content).not.toContain("## History");
    expect(user!.content).not.toContain("## Demonstrations");
    expect(user!.content).toContain("[cut 50 chars]");
    expect(system!.content).toContain("leave reasoning empty");
  });

  it("asks for a repair with the bad reply and the reason", () => {
    const original = buildExperiencePrompt(
      { task, history: [], state: { text: "s" }, action: "a", demonstrations: [] },
      { k: 0, historyWindow: 0, reasoning: true },
    );
    const repair = repairMessages(original, "{oops", "the JSON is malformed");
    expect(repair.slice(-2)).toEqual([
      { role: "assistant", content: "{oops" },
      { role: "user", content: expect.stringContaining("the JSON is malformed") },
    ]);
  });
});

describe("experience reply", () => {
  const good = { reasoning: "r", next_state: "n", reward: 1, done: true, success: true, valid: true };

  it("finds the JSON in fences or prose", () => {
    expect(extractJson(`Sure!\n\`\`\`json\n${JSON.stringify(good)}\n\`\`\``)).toBe(JSON.stringify(good));
    expect(extractJson(`Here: ${JSON.stringify(good)} done`)).toBe(JSON.stringify(good));
    expect(extractJson("no json at all")).toBeUndefined();
  });

  it("parses a good reply and explains bad ones", () => {
    expect(parseExperienceReply(JSON.stringify(good))).toEqual({ ok: true, reply: good });
    expect(parseExperienceReply('{"reasoning": "r", "next_state": "n", "rew')).toEqual({
      ok: false,
      error: expect.stringMatching(/^the JSON is truncated/),
    });
    expect(parseExperienceReply('{"reasoning": "r",, }')).toEqual({
      ok: false,
      error: expect.stringMatching(/^the JSON is malformed/),
    });
    expect(parseExperienceReply(JSON.stringify({ ...good, reward: "high" }))).toEqual({
      ok: false,
      error: expect.stringMatching(/reward: /),
    });
    expect(parseExperienceReply(JSON.stringify({ ...good, next_state: "" }))).toEqual({
      ok: false,
      error: "the JSON does not match the expected shape: next_state: next_state is empty",
    });
    expect(parseExperienceReply("I cannot help")).toEqual({
      ok: false,
      error: "the reply contains no JSON object",
    });
  });
});
