import { describe, expect, it } from "vitest";
import type { Step, Task } from "../../types";
import { ImportedDomain, NotTrainableError, stepLimit } from "./importedDomain";

const step = (state: string, action: string, actions?: string[]): Step => ({
  state: { text: state, ...(actions ? { actions } : {}) },
  action,
  next: { text: `${state} after ${action}` },
  reward: 0,
  done: false,
  success: false,
  valid: true,
});

const task = (id: string, split: "train" | "test", instruction = `do ${id}`): Task => ({
  id,
  domain: "web",
  instruction,
  split,
  origin: "imported",
});

describe("ImportedDomain", () => {
  const tasks = [
    task("web:a", "train", "How many orders did Alice place in May?"),
    task("web:b", "train"),
    task("web:c", "train"),
    task("web:d", "train"),
    task("web:e", "test"),
    task("web:f", "test"),
    task("web:unlogged", "train"),
  ];
  const episodes = tasks
    .filter((t) => t.id !== "web:unlogged")
    .map((t, i) => ({
      taskId: t.id,
      success: i % 2 === 0,
      steps: [
        step(`[Page] Dashboard of ${t.id}`, "click[Orders]", ["click[Orders]", "click[Reports]"]),
        step(`[Page] Orders table for ${t.id}`, `stop[${i}]`),
        ...(i === 0 ? [step("[Page] Orders again", "stop[0]")] : []),
      ],
    }));
  const domain = new ImportedDomain({ name: "web", tasks, episodes });

  it("has the logged tasks with their splits, and nothing for tasks without logs", () => {
    expect(domain.tasks("train", 100).map((t) => t.id)).toEqual(["web:a", "web:b", "web:c", "web:d"]);
    expect(domain.tasks("test", 1).map((t) => t.id)).toEqual(["web:e"]);
    // Indices cycle through the few there are.
    expect(domain.task("test", 3).id).toBe("web:f");
  });

  it("starts a task where its first log starts, and a variation where its root does", async () => {
    expect((await domain.initialState(tasks[1]!)).text).toBe("[Page] Dashboard of web:b");
    const variation: Task = { ...task("web:b~v123", "train"), origin: "generated", parentId: "web:b" };
    expect((await domain.initialState(variation)).text).toBe("[Page] Dashboard of web:b");
    await expect(domain.initialState(task("web:zzz", "train"))).rejects.toThrow(/no logged start state/);
  });

  it("offers the logged admissible actions, or else the actions of similar logged states", () => {
    expect(domain.candidateActions(tasks[0]!, { text: "x", actions: ["click[Reports]"] })).toEqual([
      "click[Reports]",
    ]);
    const borrowed = domain.candidateActions(tasks[0]!, { text: "[Page] Orders table for web:c" });
    expect(borrowed).toContain("stop[2]");
    // The task's own logged actions are always among them.
    expect(borrowed).toContain("stop[0]");
  });

  it("fills a free-text slot with the instruction, its gist and the fills logged in similar train states, never held-out ones", () => {
    const searchLogs = [
      { id: "s:1", split: "train" as const, text: "red cotton shirt", query: "search[red shirt]" },
      { id: "s:2", split: "train" as const, text: "blue cotton shirt", query: "search[blue shirt]" },
      { id: "s:3", split: "train" as const, text: "green wool hat", query: "search[green hat]" },
      { id: "s:4", split: "train" as const, text: "pink wool hat", query: "search[pink hat]" },
      { id: "s:5", split: "test" as const, text: "black cotton shirt", query: "search[black shirt]" },
      { id: "s:6", split: "test" as const, text: "white wool hat", query: "search[white hat]" },
    ];
    const shopLike = new ImportedDomain({
      name: "s",
      tasks: searchLogs.map((l) => ({ ...task(l.id, l.split, `i need a ${l.text}`), domain: "s" })),
      episodes: searchLogs.map((l) => ({
        taskId: l.id,
        success: true,
        steps: [step(`Search page. Instruction: i need a ${l.text}`, l.query, ["search[...]"])],
      })),
    });
    const held = shopLike.tasks("test", 1)[0]!;
    const offered = shopLike.candidateActions(held, {
      text: "Search page. Instruction: i need a black cotton shirt",
      actions: ["search[...]", "click[back]"],
    });
    expect(offered.slice(0, 2)).toEqual([
      "search[i need a black cotton shirt]",
      "search[black cotton shirt]",
    ]);
    expect(offered).toContain("search[red shirt]");
    expect(offered).toContain("click[back]");
    expect(offered).not.toContain("search[...]");
    expect(offered).not.toContain("search[black shirt]");
  });

  it("reads a listed action the logs only ever filled in off the list as a template", () => {
    const answers = ["4", "7", "9", "12", "3", "5"];
    const answering = new ImportedDomain({
      name: "qa",
      tasks: answers.map((_, i) => ({
        ...task(`qa:${i}`, i < 4 ? "train" : "test", `count ${i}`),
        domain: "qa",
      })),
      episodes: answers.map((n, i) => ({
        taskId: `qa:${i}`,
        success: true,
        steps: [step(`[table] ${n} records`, `stop[${n}]`, ["click[Next]", "stop[answer]"])],
      })),
    });
    const offered = answering.candidateActions(answering.tasks("test", 1)[0]!, {
      text: "[table] 12 records",
      actions: ["click[Next]", "stop[answer]"],
    });
    expect(offered).toContain("click[Next]");
    expect(offered).not.toContain("stop[answer]");
    expect(offered).toContain("stop[12]");
    // Only train logs say what a template is filled with: the held-out answer 3 is not offered.
    expect(offered).not.toContain("stop[3]");
  });

  it("gives episodes half again the longest log's length (at least 5)", () => {
    expect(domain.maxSteps).toBe(5);
    expect(stepLimit([3, 4, 8, 9, 10])).toBe(15);
  });

  it("keeps the step limit the logs pile up at: the source environment cut its episodes there", () => {
    // WebShop-like logs: most end early, and the failures that ran out of steps all end at the 15th.
    const capped = [...Array(40).fill(4), 12, 13, 14, ...Array(30).fill(15)];
    expect(stepLimit(capped)).toBe(15);
    // A few logs at the longest length, no more than one step shorter: a natural tail, not a cap.
    expect(stepLimit([...Array(40).fill(4), 13, 14, 14, 15, 15])).toBe(23);
    expect(stepLimit([...Array(6).fill(14), ...Array(6).fill(15)])).toBe(23);
  });

  it("lists successful logs per split for cloning and for the agreement proxy", () => {
    expect(domain.successfulLogs("train").map((l) => l.task.id)).toEqual(["web:a", "web:c"]);
    expect(domain.successfulLogs("test").map((l) => l.task.id)).toEqual(["web:e"]);
  });

  it("refuses a domain with too few logged tasks to train and evaluate on, saying what it has", () => {
    expect(
      () => new ImportedDomain({ name: "tiny", tasks: tasks.slice(0, 5), episodes: episodes.slice(0, 5) }),
    ).toThrow(NotTrainableError);
    expect(
      () => new ImportedDomain({ name: "tiny", tasks: tasks.slice(0, 5), episodes: episodes.slice(0, 5) }),
    ).toThrow(/"tiny" has 4 train and 1 test tasks/);
  });
});
