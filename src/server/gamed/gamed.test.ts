import { afterEach, beforeEach, expect, it } from "vitest";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../tests/helpers/testDb";
import { gamedSummary } from "./gamedSummary";
import { listGamed } from "./listGamed";
import { addSyntheticEpisode, seedGamedWorld } from "./testFixtures";

describeEachDatabase("where the model is gamed", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("ranks a run's synthetic episodes by excess, with real returns over the steps the real replay reached", async () => {
    const w = await seedGamedWorld(t.db);
    const page = await listGamed(t.db, { runId: w.runId }, { offset: 0, limit: 50 });
    // The episode without any real answer is not ranked; the two at excess 0 tie, the earlier iteration first.
    expect(page.total).toBe(4);
    expect(page.items.map((e) => e.id)).toEqual([w.gamed, w.endedFirst, w.faithful, w.invalid]);
    const [gamed, endedFirst] = page.items;
    expect(gamed).toMatchObject({
      runName: "gamed run",
      instruction: "buy a red mug under 20 dollars",
      iteration: 1,
      length: 3,
      answeredSteps: 3,
      syntheticReturn: 1,
      realReturn: 0.25,
      excess: 0.75,
      syntheticSuccess: true,
      realSuccess: false,
      gamed: true,
      realEndedAt: 2,
      rewardPartsAt: 2,
      parting: { index: 2, elements: true, choices: false, reward: true, end: false, validity: false },
    });
    // The real purchase at step 2 ended the real episode: the model's later 0.6 is paid for nothing.
    expect(endedFirst).toMatchObject({
      length: 3,
      answeredSteps: 2,
      syntheticReturn: 0.8,
      realReturn: 0.5,
      excess: 0.3,
      realSuccess: false,
      gamed: false,
      realEndedAt: 1,
      rewardPartsAt: 1,
      parting: { index: 1, elements: true, choices: false, reward: true, end: true, validity: false },
    });
    const byId = new Map(page.items.map((e) => [e.id, e]));
    // Case and spacing alone are not a different page, as in the step view.
    expect(byId.get(w.faithful)).toMatchObject({
      excess: 0,
      realSuccess: true,
      gamed: false,
      parting: null,
      rewardPartsAt: null,
    });
    // An action the real environment refuses is answered (reward 0) and parts on validity.
    expect(byId.get(w.invalid)).toMatchObject({
      excess: 0,
      answeredSteps: 2,
      parting: { index: 1, elements: true, choices: false, reward: false, end: false, validity: true },
    });
  });

  it("pages by offset without overlap and counts past the end", async () => {
    const w = await seedGamedWorld(t.db);
    const first = await listGamed(t.db, { runId: w.runId }, { offset: 0, limit: 3 });
    const second = await listGamed(t.db, { runId: w.runId }, { offset: 3, limit: 3 });
    expect([...first.items, ...second.items].map((e) => e.id)).toEqual(
      (await listGamed(t.db, { runId: w.runId }, { offset: 0, limit: 10 })).items.map((e) => e.id),
    );
    expect(second.total).toBe(4);
    const past = await listGamed(t.db, { runId: w.runId }, { offset: 40, limit: 3 });
    expect(past).toMatchObject({ items: [], total: 4 });
  });

  it("filters across runs by run, domain and iteration range", async () => {
    const w = await seedGamedWorld(t.db);
    const ids = async (filter: Parameters<typeof listGamed>[1]) =>
      (await listGamed(t.db, filter, { offset: 0, limit: 50 })).items.map((e) => e.id).sort();
    expect(await ids({ domain: "household" })).toEqual([w.household]);
    expect(await ids({ runId: w.householdRunId })).toEqual([w.household]);
    expect(await ids({ runId: w.runId, iterationFrom: 2, iterationTo: 3 })).toEqual(
      [w.endedFirst, w.faithful, w.invalid].sort(),
    );
    expect(await ids({ iterationFrom: 3 })).toEqual([w.invalid]);
    expect(await ids({ iterationTo: 1 })).toEqual([w.gamed, w.household].sort());
    expect(await ids({ domain: "web" })).toEqual([]);
  });

  it("sums up a run: the share gamed, the mean excess, and why episodes part at their first divergent step", async () => {
    const w = await seedGamedWorld(t.db);
    const summary = await gamedSummary(t.db, { runId: w.runId });
    expect(summary).toEqual({
      run: {
        id: w.runId,
        name: "gamed run",
        method: "dreamgym",
        domain: "shop",
        status: "queued",
        synthetic: true,
      },
      episodes: 5,
      ranked: 4,
      unanswered: 1,
      gamed: 1,
      gamedShare: 0.25,
      syntheticSuccessRate: 0.5,
      realSuccessRate: 0.25,
      meanSyntheticReturn: 0.7,
      meanRealReturn: 0.4375,
      meanExcess: 0.2625,
      realEndedFirst: 1,
      parting: {
        all: { episodes: 4, parted: 3, elements: 3, choices: 0, reward: 2, end: 1, validity: 1 },
        gamed: { episodes: 1, parted: 1, elements: 1, choices: 0, reward: 1, end: 0, validity: 0 },
      },
    });
    // Read in pages of two episodes, the summary is the same.
    expect(await gamedSummary(t.db, { runId: w.runId }, 2)).toEqual(summary);
    expect(await gamedSummary(t.db, { runId: w.runId }, 1)).toEqual(summary);
  });

  it("parts only where it matters, and the table of reasons separates the episodes", async () => {
    await t.db.task.create({ data: { id: "shop:9", domain: "shop", instruction: "buy a mug" } });
    const run = await t.db.run.create({
      data: { name: "reasons", method: "dreamgym", domain: "shop", algorithm: "grpo", config: {} },
    });
    const episode = (steps: Parameters<typeof addSyntheticEpisode>[1]["steps"], group: number) =>
      addSyntheticEpisode(t.db, {
        runId: run.id,
        taskId: "shop:9",
        iteration: 0,
        group,
        success: false,
        steps,
      });
    const page = "Results [SEP] B0001 [SEP] Red Mug [SEP] $12.00 [SEP] B0002 [SEP] Blue Mug [SEP] $9.00";
    // Case, spacing and the order of unchanged products: cosmetic, no parting.
    const cosmetic = await episode(
      [
        {
          next: page,
          reward: 0,
          real: {
            next: "results [SEP] b0002 [SEP] blue mug [SEP] $9.00 [SEP]  b0001 [SEP] red mug [SEP] $12.00",
            reward: 0,
          },
        },
      ],
      0,
    );
    // The model lists a product the real page lacks, and offers to click it.
    const choices = await episode(
      [
        {
          next: page,
          actions: ["click[back to search]", "click[b0001]", "click[b0002]"],
          reward: 0,
          real: { next: "Results [SEP] B0001 [SEP] Red Mug [SEP] $12.00", reward: 0 },
        },
      ],
      1,
    );
    // The same page, but a reward the real shop does not pay.
    const reward = await episode([{ next: page, reward: 0.5, real: { next: page, reward: 0 } }], 2);
    // The same page and reward, but the real episode ended there.
    const end = await episode([{ next: page, reward: 0, real: { next: page, reward: 0, done: true } }], 3);
    // The same page: the real shop refused the action.
    const validity = await episode(
      [{ next: page, reward: 0, real: { next: page, reward: 0, valid: false } }],
      4,
    );

    const { items } = await listGamed(t.db, { runId: run.id }, { offset: 0, limit: 10 });
    const parting = new Map(items.map((e) => [e.id, e.parting]));
    const none = { elements: false, choices: false, reward: false, end: false, validity: false };
    expect(parting.get(cosmetic)).toBeNull();
    expect(parting.get(choices)).toEqual({ index: 0, ...none, elements: true, choices: true });
    expect(parting.get(reward)).toEqual({ index: 0, ...none, reward: true });
    expect(parting.get(end)).toEqual({ index: 0, ...none, end: true });
    expect(parting.get(validity)).toEqual({ index: 0, ...none, validity: true });
    const summary = await gamedSummary(t.db, { runId: run.id });
    expect(summary?.parting.all).toEqual({
      episodes: 5,
      parted: 4,
      elements: 1,
      choices: 1,
      reward: 1,
      end: 1,
      validity: 1,
    });
    const inUse = Object.entries(summary?.parting.all ?? {}).filter(
      ([key, n]) => key !== "episodes" && key !== "parted" && n > 0,
    );
    expect(inUse.length).toBeGreaterThanOrEqual(3);
  });

  it("reads a large run in bounded pages and agrees with the ranking", async () => {
    const w = await seedGamedWorld(t.db);
    const run = await t.db.run.create({
      data: { name: "big", method: "dreamgym", domain: "shop", algorithm: "grpo", config: {} },
    });
    for (let i = 0; i < 30; i++)
      await addSyntheticEpisode(t.db, {
        runId: run.id,
        taskId: "shop:1",
        iteration: i % 4,
        group: i,
        success: i % 3 === 0,
        steps: [
          { next: "Results", reward: 0, real: { next: "Results", reward: 0 } },
          {
            next: `Thank you [SEP] ${i}`,
            reward: (i % 10) / 10,
            done: true,
            real: { next: "Thank you [SEP] 0", reward: 0, done: true },
          },
        ],
      });
    const summary = await gamedSummary(t.db, { runId: run.id }, 7);
    const all = await listGamed(t.db, { runId: run.id }, { offset: 0, limit: 100 });
    expect(summary?.ranked).toBe(all.total);
    expect(summary?.gamed).toBe(all.items.filter((e) => e.gamed).length);
    expect(summary?.parting.all.parted).toBe(all.items.filter((e) => e.parting).length);
    const excesses = all.items.map((e) => e.excess);
    expect(excesses).toEqual([...excesses].sort((a, b) => b - a));
    // Ties (the same reward every ten episodes): the earliest iteration first.
    const tie = all.items.filter((e) => e.excess === 0.5).map((e) => e.iteration ?? -1);
    expect(tie).toHaveLength(3);
    expect(tie).toEqual([...tie].sort((a, b) => a - b));
    expect(summary?.meanExcess).toBeCloseTo(excesses.reduce((a, b) => a + b, 0) / excesses.length, 9);
    expect((await gamedSummary(t.db, { runId: w.runId }))?.episodes).toBe(5);
  });
});
