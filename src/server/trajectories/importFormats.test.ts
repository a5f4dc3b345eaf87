import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../tests/helpers/testDb";
import { ImportRejected, importTrajectoriesFile } from "./importTrajectories";

// The foreign formats go through the same import as our JSONL: real SQLite, all or nothing, keyed by content.

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(async () => {
  await t.cleanup();
});

async function counts() {
  return {
    tasks: await t.db.task.count(),
    trajectories: await t.db.trajectory.count(),
    steps: await t.db.step.count(),
  };
}

function write(name: string, text: string): string {
  const file = path.join(t.dir, name);
  fs.writeFileSync(file, text);
  return file;
}

const agentItem = (id: string, turns: number, reward?: number) => ({
  item_id: id,
  conversations: [
    { from: "human", loss: null, value: "You are web shopping. Answer with Thought: and Action:." },
    { from: "gpt", loss: false, value: "OK" },
    { from: "human", loss: null, value: `WebShop [SEP] Instruction: [SEP] i need item ${id} [SEP] Search` },
    ...Array.from({ length: turns }, (_, i) => [
      { from: "gpt", loss: true, value: `Thought: step ${i} of ${id}.\nAction: click[item ${i}]` },
      { from: "human", loss: null, value: `page ${i + 1} of ${id}` },
    ]).flat(),
  ],
  ...(reward === undefined ? {} : { reward }),
});

const trace = (id: number, success: boolean) => ({
  task_id: id,
  intent: `How many orders did customer ${id} place?`,
  sites: ["shopping_admin"],
  trajectory: [
    { observation: "[1] RootWebArea 'Dashboard'\n[5] link 'Customers'", action: "click [5]" },
    { observation: `[1] RootWebArea 'Customers'\n[9] row 'customer ${id}'`, action: "click [9]" },
    {
      observation: `[1] RootWebArea 'Customer ${id}'\n[3] StaticText '${id} orders'`,
      action: `stop [${id}]`,
    },
  ],
  evaluation: { success },
});

describe("importing AgentTraj and WebArena-style files", () => {
  it("imports an AgentTraj array with its steps, reasoning and outcome, and adds nothing the second time", async () => {
    const file = write(
      "webshop_train.json",
      JSON.stringify(
        [agentItem("webshop_0", 3, 1), agentItem("webshop_1", 2, 0.5), agentItem("webshop_2", 1)],
        null,
        2,
      ),
    );
    const summary = await importTrajectoriesFile(t.db, file, "webshop_train.json", undefined, {
      format: "agenttraj",
    });
    expect(summary).toMatchObject({
      format: "agenttraj",
      trajectories: 3,
      imported: 3,
      duplicates: 0,
      steps: 6,
    });
    expect(await counts()).toEqual({ tasks: 3, trajectories: 3, steps: 6 });
    const first = await t.db.trajectory.findFirstOrThrow({
      where: { taskId: "webshop:webshop_0" },
      include: { steps: { orderBy: { index: "asc" } }, task: true },
    });
    expect(first).toMatchObject({
      domain: "webshop",
      source: "offline",
      policy: "agenttraj",
      success: true,
      length: 3,
    });
    expect(first.task.instruction).toBe("i need item webshop_0");
    expect(first.steps[1]).toMatchObject({
      action: "click[item 1]",
      reasoning: "step 1 of webshop_0.",
      state: "page 1 of webshop_0",
    });
    expect(await t.db.trajectory.count({ where: { success: true } })).toBe(1); // 0.5 and no reward are not successes

    const again = await importTrajectoriesFile(t.db, file, "again", undefined, { format: "auto" });
    expect(again).toMatchObject({ format: "agenttraj", imported: 0, duplicates: 3 });
    expect(await counts()).toEqual({ tasks: 3, trajectories: 3, steps: 6 });
  });

  it("imports WebArena-style traces as JSONL under a chosen domain and split", async () => {
    const file = write(
      "traces.jsonl",
      [trace(1, true), trace(2, false)].map((x) => JSON.stringify(x)).join("\n"),
    );
    const summary = await importTrajectoriesFile(t.db, file, "traces.jsonl", undefined, {
      format: "webarena",
      domain: "web-admin",
      split: "test",
    });
    expect(summary).toMatchObject({ format: "webarena", imported: 2, steps: 6 });
    const tasks = await t.db.task.findMany({ orderBy: { id: "asc" } });
    expect(tasks.map((x) => [x.id, x.domain, x.split])).toEqual([
      ["web-admin:1", "web-admin", "test"],
      ["web-admin:2", "web-admin", "test"],
    ]);
    const won = await t.db.trajectory.findFirstOrThrow({
      where: { taskId: "web-admin:1" },
      include: { steps: true },
    });
    expect(won.success).toBe(true);
    expect(won.totalReward).toBe(1);
    expect(won.steps.find((s) => s.index === 0)?.nextState).toMatch(/'Customers'/);
  });

  for (const [format, name, text, lines, pattern] of [
    [
      "agenttraj",
      "bad_agenttraj.json",
      `[\n${[agentItem("a_1", 1), { item_id: "a_2", conversations: "none" }, agentItem("a_3", 1), { conversations: [] }].map((x) => JSON.stringify(x)).join(",\n")}\n]`,
      [3, 5],
      /line 3: item 2 \(item_id "a_2"\): conversations: missing[\s\S]*line 5: item 4: item_id: missing/,
    ],
    [
      "webarena",
      "bad_traces.jsonl",
      [
        trace(1, true),
        { ...trace(2, true), trajectory: [{ observation: "", action: "click [1]" }] },
        trace(3, true),
      ]
        .map((x) => JSON.stringify(x))
        .join("\n")
        .concat("\n{broken"),
      [2, 4],
      /line 2: trace 2 \(task_id "2"\): trajectory\[0\]\.observation: missing[\s\S]*line 4: not valid JSON/,
    ],
  ] as const) {
    it(`rejects a malformed ${format} file whole, naming each bad line, item and field, and writes nothing`, async () => {
      const file = write(name, text);
      const error = await importTrajectoriesFile(t.db, file, name, undefined, { format }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ImportRejected);
      expect((error as ImportRejected).errors.map((e) => e.line)).toEqual(lines);
      expect((error as ImportRejected).message).toMatch(
        new RegExp(`${name.replace(".", "\\.")} was rejected \\(2 bad lines\\), nothing imported`),
      );
      expect((error as ImportRejected).message).toMatch(pattern);
      expect(await counts()).toEqual({ tasks: 0, trajectories: 0, steps: 0 });
    });
  }

  it("under the default format, refuses an AgentTraj file and says to pick its format", async () => {
    const file = write("webshop.json", JSON.stringify([agentItem("webshop_0", 1)]));
    await expect(importTrajectoriesFile(t.db, file)).rejects.toThrow(
      /looks like AgentGym AgentTraj.*"agenttraj"/,
    );
    expect(await counts()).toEqual({ tasks: 0, trajectories: 0, steps: 0 });
  });
});
