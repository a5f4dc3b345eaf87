import { describe, expect, it } from "vitest";
import { rejectionMessage } from "../importFormat";
import { instructionOf, splitThoughtAction } from "./agentTraj";
import { detectFormat, parseImportAs, toJsonl } from "./index";
import { readRecords } from "./records";

const agentItem = (id: string, extra: Record<string, unknown> = {}) => ({
  item_id: id,
  conversations: [
    { from: "human", loss: null, value: "You are in a house. Answer with Thought: and Action:." },
    { from: "gpt", loss: false, value: "OK" },
    {
      from: "human",
      loss: null,
      value: "You are in the middle of a room.\nYour task is to: put a clean mug in the cabinet.",
    },
    {
      from: "gpt",
      loss: true,
      value: "Thought: Mugs are usually on the counter.\nAction: go to countertop 1",
    },
    { from: "human", loss: null, value: "On the countertop 1, you see a mug 1." },
    { from: "gpt", loss: true, value: "Thought: There it is.\n\nAction:\ntake mug 1 from countertop 1" },
    { from: "human", loss: null, value: "You pick up the mug 1." },
  ],
  ...extra,
});

const trace = (id: number, extra: Record<string, unknown> = {}) => ({
  task_id: id,
  intent: "How many pending reviews are there?",
  trajectory: [
    { observation: "[1] RootWebArea 'Dashboard'\n[12] link 'Reports'", action: "click [12]" },
    { observation: "[1] RootWebArea 'Reports'\n[33] link 'Product Reviews'", action: "click [33]" },
    { observation: "[1] RootWebArea 'Reviews'\n[7] StaticText '5 pending'", action: "stop [5]" },
  ],
  success: true,
  ...extra,
});

describe("AgentTraj conversion", () => {
  it("turns each acting gpt turn into a step, with the human turns around it as states", () => {
    const parsed = parseImportAs(
      JSON.stringify([agentItem("alfworld_7", { reward: 1 })], null, 2),
      "agenttraj",
    );
    expect(parsed.errors).toEqual([]);
    expect(parsed.format).toBe("agenttraj");
    const [t] = parsed.trajectories;
    expect(t?.line).toBe(2);
    expect(t?.taskId).toBe("alfworld:alfworld_7");
    expect(t?.data).toMatchObject({
      domain: "alfworld",
      instruction: "put a clean mug in the cabinet.",
      split: "train",
      policy: "agenttraj",
    });
    expect(t?.data.steps).toEqual([
      {
        state: "You are in the middle of a room.\nYour task is to: put a clean mug in the cabinet.",
        action: "go to countertop 1",
        reasoning: "Mugs are usually on the counter.",
        next_state: "On the countertop 1, you see a mug 1.",
        reward: 0,
        done: false,
      },
      {
        state: "On the countertop 1, you see a mug 1.",
        action: "take mug 1 from countertop 1",
        reasoning: "There it is.",
        next_state: "You pick up the mug 1.",
        reward: 1,
        done: true,
      },
    ]);
  });

  it("reads the WebShop instruction, a built-in domain's name gets a prefix, and no outcome is reward 0", () => {
    expect(
      instructionOf("WebShop [SEP] Instruction: [SEP] i need a red mug under 20 dollars [SEP] Search"),
    ).toBe("i need a red mug under 20 dollars");
    expect(splitThoughtAction("click[Buy Now]")).toEqual({ action: "click[Buy Now]" });
    const parsed = parseImportAs(`${JSON.stringify(agentItem("household_3"))}\n`, "agenttraj");
    expect(parsed.trajectories[0]?.data.domain).toBe("agentgym-household");
    expect(parsed.trajectories[0]?.data.steps.at(-1)).toMatchObject({ reward: 0, done: true });
    const renamed = parseImportAs(JSON.stringify([agentItem("x_1", { success: true })]), "agenttraj", {
      domain: "kitchen",
      split: "test",
    });
    expect(renamed.trajectories[0]?.data).toMatchObject({ domain: "kitchen", split: "test" });
    expect(renamed.trajectories[0]?.data.steps.at(-1)).toMatchObject({ reward: 1, success: true });
  });

  it("without loss marks, takes the gpt turns before the first Action: as the prompt's", () => {
    const item = agentItem("alfworld_8");
    for (const turn of item.conversations) delete (turn as { loss?: unknown }).loss;
    const parsed = parseImportAs(JSON.stringify([item]), "agenttraj");
    expect(parsed.trajectories[0]?.data.steps.map((s) => s.action)).toEqual([
      "go to countertop 1",
      "take mug 1 from countertop 1",
    ]);
  });

  it("names the item, its line and the field of every bad item, in an array and in JSONL", () => {
    const broken = agentItem("alfworld_2");
    (broken.conversations[3] as { from: string }).from = "assistant";
    const items = [
      agentItem("alfworld_1"),
      broken,
      { item_id: "alfworld_3" },
      agentItem("alfworld_4", { reward: "high" }),
      { ...agentItem("alfworld_5"), conversations: agentItem("x").conversations.slice(0, 3) },
    ];
    const array = parseImportAs(`[\n${items.map((i) => JSON.stringify(i)).join(",\n")}\n]`, "agenttraj");
    expect(array.errors.map((e) => e.line)).toEqual([3, 4, 5, 6]);
    const message = rejectionMessage("agenttraj.json", array.errors);
    expect(message).toMatch(/4 bad lines/);
    expect(message).toMatch(
      /line 3: item 2 \(item_id "alfworld_2"\): conversations\[3\]\.from: must be "human" or "gpt"/,
    );
    expect(message).toMatch(/line 4: item 3 \(item_id "alfworld_3"\): conversations: missing/);
    expect(message).toMatch(/line 5: item 4 .*reward: must be a number or a boolean/);
    expect(message).toMatch(/line 6: item 5 .*no gpt turn that acts/);

    const jsonl = parseImportAs(
      [JSON.stringify(agentItem("a_1")), "{oops", JSON.stringify({ conversations: [] })].join("\n"),
      "agenttraj",
    );
    expect(jsonl.errors.map((e) => [e.line, e.message.slice(0, 16)])).toEqual([
      [2, "not valid JSON ("],
      [3, "item 3: item_id:"],
    ]);
  });
});

describe("WebArena-style conversion", () => {
  it("pairs each observation with the next one and puts the outcome on the last step", () => {
    const parsed = parseImportAs(JSON.stringify(trace(42)), "webarena");
    expect(parsed.errors).toEqual([]);
    const [t] = parsed.trajectories;
    expect(t?.taskId).toBe("web:42");
    expect(t?.data.instruction).toBe("How many pending reviews are there?");
    expect(t?.data.steps.map((s) => [s.action, s.next_state.split("\n")[0], s.reward, s.done])).toEqual([
      ["click [12]", "[1] RootWebArea 'Reports'", 0, false],
      ["click [33]", "[1] RootWebArea 'Reviews'", 0, false],
      ["stop [5]", "", 1, true],
    ]);
    expect(t?.data.steps[2]?.success).toBe(true);
    const scored = parseImportAs(
      JSON.stringify(trace(43, { success: undefined, evaluation: { score: 0 } })),
      "webarena",
    );
    expect(scored.trajectories[0]?.data.steps.at(-1)).toMatchObject({ reward: 0, done: true });
  });

  it("names the trace, its line and the field of every bad trace", () => {
    const lines = [
      JSON.stringify(trace(1)),
      JSON.stringify(trace(2, { intent: "" })),
      JSON.stringify({ ...trace(3), trajectory: [{ observation: "page", action: 7 }] }),
      "",
      JSON.stringify({ intent: "x", trajectory: [] }),
      JSON.stringify(trace(5, { evaluation: "passed" })),
    ];
    const parsed = parseImportAs(lines.join("\n"), "webarena");
    expect(parsed.errors.map((e) => e.line)).toEqual([2, 3, 5, 6]);
    expect(parsed.errors[0]?.message).toBe(
      'trace 2 (task_id "2"): intent: missing (the task\'s instruction, a non-empty string)',
    );
    expect(parsed.errors[1]?.message).toMatch(/^trace 3 \(task_id "3"\): trajectory\[0\]\.action: missing/);
    expect(parsed.errors[2]?.message).toMatch(/^trace 4: task_id: missing/);
    expect(parsed.errors[3]?.message).toMatch(/evaluation: must be a number or a boolean/);
  });
});

describe("format detection and the default format", () => {
  it("detects each format from its first record", () => {
    expect(detectFormat(JSON.stringify([agentItem("a_1")]))).toBe("agenttraj");
    expect(detectFormat(JSON.stringify(trace(1)))).toBe("webarena");
    expect(detectFormat(JSON.stringify({ task_id: 1, intent: "x", steps: [] }))).toBe("webarena");
    expect(detectFormat('{"domain":"web","instruction":"x","steps":[]}')).toBe("dreamgym");
    expect(detectFormat("hello")).toBeUndefined();
    expect(parseImportAs(JSON.stringify(trace(1)), "auto").format).toBe("webarena");
  });

  it("refuses another format under the default one, and says which format it looks like", () => {
    const parsed = parseImportAs(JSON.stringify(trace(1)), "dreamgym");
    expect(parsed.trajectories).toEqual([]);
    expect(rejectionMessage("trace.json", parsed.errors)).toMatch(
      /1 bad line[^s][\s\S]*looks like WebArena-style traces: import it with the format "webarena"/,
    );
  });

  it("an empty converted file is refused as empty, and converted records round-trip through our JSONL", () => {
    expect(parseImportAs("[]", "agenttraj").errors).toEqual([{ line: 0, message: "the file is empty" }]);
    const parsed = parseImportAs(JSON.stringify([trace(1), trace(2)]), "webarena");
    const again = parseImportAs(toJsonl(parsed), "dreamgym");
    expect(again.trajectories.map((t) => t.key)).toEqual(parsed.trajectories.map((t) => t.key));
  });

  it("finds the line each element of a JSON array starts on, strings with brackets included", () => {
    const text = '[\n  {"a": "[,{"},\n\n  {"b": [1,\n 2]}, 3\n]';
    expect(readRecords(text).records.map((r) => [r.item, r.line])).toEqual([
      [1, 2],
      [2, 4],
      [3, 5],
    ]);
  });
});
