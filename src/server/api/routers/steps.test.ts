import { afterEach, beforeEach, expect, it } from "vitest";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../../tests/helpers/testDb";
import { seedResearcherWorld } from "../../steps/testFixtures";
import { createCaller } from "../root";
import { signedIn } from "../testing";

/** Why a step is flagged, where a test does not care (who is the signed-in caller). */
const BY = { category: "hallucinated-element" } as const;
describeEachDatabase("steps router", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("flags a step with a note, lists it, keeps the first flag time, and unflags it", async () => {
    const world = await seedResearcherWorld(t.db);
    const caller = createCaller(signedIn(t.db));
    const flagged = await caller.steps.flag({
      ...BY,
      id: world.hallucinatedStepId,
      note: "  invents a Golden Teapot ",
    });
    expect(flagged).toMatchObject({ flagged: true, flagNote: "invents a Golden Teapot" });
    expect(flagged.flaggedAt).toBeInstanceOf(Date);

    const again = await caller.steps.flag({ ...BY, id: world.hallucinatedStepId, note: "and a reward of 1" });
    expect(again.flagNote).toBe("and a reward of 1");
    expect(again.flaggedAt?.getTime()).toBe(flagged.flaggedAt?.getTime());

    const list = await caller.steps.flagged({ runId: world.runId });
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({
      id: world.hallucinatedStepId,
      index: 1,
      flagNote: "and a reward of 1",
      trajectory: { id: world.syntheticId, runId: world.runId, iteration: 0, run: { name: "fixture run" } },
    });
    expect((await caller.steps.flagged({ domain: "household" })).total).toBe(0);
    expect((await caller.steps.flagged({ runId: "another-run" })).total).toBe(0);

    await caller.steps.unflag({ id: world.hallucinatedStepId });
    const step = await t.db.step.findUniqueOrThrow({ where: { id: world.hallucinatedStepId } });
    expect(step).toMatchObject({ flagged: false, flagNote: null, flaggedAt: null });
    expect((await caller.steps.flagged({})).total).toBe(0);
  });

  it("flags without a note, and says which step does not exist or cannot be flagged", async () => {
    const world = await seedResearcherWorld(t.db);
    const caller = createCaller(signedIn(t.db));
    expect((await caller.steps.flag({ ...BY, id: world.faithfulStepId })).flagNote).toBeNull();
    await expect(caller.steps.flag({ ...BY, id: "no-such-step", note: "x" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "No step with id no-such-step",
    });
    await expect(caller.steps.unflag({ id: "no-such-step" })).rejects.toThrow(/No step with id no-such-step/);
    // An offline step is what the environment did: nothing was predicted, so nothing can be hallucinated.
    await expect(caller.steps.flag({ ...BY, id: world.demonstrationId, note: "x" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/^Only synthetic steps can be flagged: this offline step/),
    });
    expect((await t.db.step.findUniqueOrThrow({ where: { id: world.demonstrationId } })).flagged).toBe(false);
    await expect(
      caller.steps.flag({ ...BY, id: world.faithfulStepId, note: "x".repeat(2001) }),
    ).rejects.toThrow(/at most 2000 characters/);
  });

  it("resolves the retrieved demonstrations of every step, marking the ones that are gone", async () => {
    const world = await seedResearcherWorld(t.db);
    const caller = createCaller(signedIn(t.db));
    const demonstrations = await caller.steps.demonstrations({ trajectoryId: world.syntheticId });
    expect(demonstrations[world.faithfulStepId]).toEqual([
      {
        stepId: world.demonstrationId,
        rank: 1,
        step: expect.objectContaining({
          trajectoryId: world.offlineId,
          index: 0,
          source: "offline",
          action: "search[red mug]",
          instruction: "buy a red mug under 20 dollars",
        }),
      },
      { stepId: "gone-step", rank: 2, step: null },
    ]);
    expect(demonstrations[world.hallucinatedStepId]).toHaveLength(1);
    expect(await caller.steps.demonstrations({ trajectoryId: world.offlineId })).toEqual({
      [world.demonstrationId]: [],
    });
    await expect(caller.steps.demonstrations({ trajectoryId: "nope" })).rejects.toThrow(
      /No trajectory with id nope/,
    );
    expect(await caller.steps.locate({ id: world.demonstrationId })).toEqual({
      id: world.demonstrationId,
      trajectoryId: world.offlineId,
      index: 0,
    });
    await expect(caller.steps.locate({ id: "gone-step" })).rejects.toThrow(/No step with id gone-step/);
  });

  it("measures a run's fidelity over the steps that have the real answer", async () => {
    const world = await seedResearcherWorld(t.db);
    const caller = createCaller(signedIn(t.db));
    await caller.steps.flag({ ...BY, id: world.hallucinatedStepId, note: "teapot" });
    const fidelity = await caller.steps.fidelity({ runId: world.runId });
    expect(fidelity).toMatchObject({
      runName: "fixture run",
      domain: "shop",
      syntheticSteps: 3,
      withRealAnswer: 2,
      differs: 0.5,
      flagged: 1,
      report: {
        transitions: 2,
        exactMatch: 0.5,
        rewardAccuracy: 0.5,
        doneAccuracy: 0.5,
        invalidActionAgreement: 1,
      },
    });
    // "golden teapot" appears nowhere in what the model saw nor in the real page.
    expect(fidelity.report.hallucinationRate).toBeGreaterThan(0);
    // Both steps started from the real state (the second from the first's real next state).
    expect(fidelity.onPath).toMatchObject({ transitions: 2, invalidActionAgreement: 1 });

    const later = await caller.steps.fidelity({ runId: world.runId, iteration: 1 });
    expect(later).toMatchObject({ syntheticSteps: 1, withRealAnswer: 0, differs: 0, flagged: 0 });
    await expect(caller.steps.fidelity({ runId: "nope" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "No run with id nope",
    });
  });

  it("tells the closed loop from the steps still on the real path, where model and real environment saw the same page", async () => {
    await t.db.task.create({ data: { id: "shop:9", domain: "shop", instruction: "buy a green lamp" } });
    const run = await t.db.run.create({
      data: { name: "drift run", method: "dreamgym", domain: "shop", algorithm: "grpo", config: {} },
    });
    const predictedPage = "Results [SEP] Green Lamp [SEP] Golden Lamp";
    await t.db.trajectory.create({
      data: {
        taskId: "shop:9",
        domain: "shop",
        source: "synthetic",
        runId: run.id,
        iteration: 0,
        length: 2,
        steps: {
          create: [
            // On the real path (the first step), but the predicted page invents a product...
            {
              index: 0,
              state: "Search",
              action: "search[green lamp]",
              nextState: predictedPage,
              reward: 0,
              done: false,
              realNextState: "Results [SEP] Green Lamp",
              realReward: 0,
              realDone: false,
              realValid: true,
            },
            // ...which the policy then clicks: valid on the predicted page, invalid on the real one.
            {
              index: 1,
              state: predictedPage,
              action: "click[Golden Lamp]",
              nextState: "Golden Lamp [SEP] Buy Now",
              reward: 0,
              done: false,
              valid: true,
              realNextState: "Results [SEP] Green Lamp",
              realReward: 0,
              realDone: false,
              realValid: false,
            },
          ],
        },
      },
    });
    const fidelity = await createCaller(signedIn(t.db)).steps.fidelity({ runId: run.id });
    expect(fidelity.report).toMatchObject({ transitions: 2, invalidActionAgreement: 0.5 });
    expect(fidelity.onPath).toMatchObject({ transitions: 1, invalidActionAgreement: 1 });
  });
});
