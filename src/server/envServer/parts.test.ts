/**
 * The environment server's parts on their own: one step at a time per episode, the curriculum feed's groups and
 * task values, and the sweep that abandons episodes a dead server left live.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { household } from "@/core/envs/household";
import type { Environment, Observation, StepResult } from "@/core/types";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../tests/helpers/testDb";
import { CurriculumFeed } from "./curriculumFeed";
import { Episode } from "./episode";
import { createExternalRun, recordTrainerMetrics } from "./externalRuns";
import { EpisodeRecorder } from "./recorder";
import { inlineWriter } from "./recordWrites";
import { refreshRunFigures } from "./runFigures";
import { EnvService } from "./service";

/** An environment whose steps finish only when the test says, and end the episode at the second. */
class HeldEnvironment implements Environment {
  readonly domain = "household";
  release: () => void = () => {};
  private steps = 0;
  async reset(): Promise<Observation> {
    return { text: "a room", actions: ["look"] };
  }
  async step(): Promise<StepResult> {
    await new Promise<void>((resolve) => {
      this.release = resolve;
    });
    this.steps++;
    return { observation: { text: "a room" }, reward: 0, done: this.steps >= 2, success: false, valid: true };
  }
}

describeEachDatabase("an episode", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("takes one step at a time, and none after it ended", async () => {
    const run = await createExternalRun(t.db, { config: { domain: "household" } });
    const env = new HeldEnvironment();
    const recorder = new EpisodeRecorder(inlineWriter(t.db), 5, 5);
    const episode = new Episode({
      episodeId: "e1",
      runId: run.id,
      task: household.task("train", 0),
      mode: "real",
      version: 0,
      group: null,
      domain: household,
      env,
      recorder,
    });
    await episode.start();
    const first = episode.step({ action: "look", playable: true });
    await new Promise((r) => setTimeout(r, 10));
    await expect(episode.step({ action: "look", playable: true })).rejects.toMatchObject({
      code: "SESSION_BUSY",
    });
    env.release();
    expect((await first).done).toBe(false);
    const second = episode.step({ action: "look", playable: true });
    await new Promise((r) => setTimeout(r, 10));
    env.release();
    expect((await second).done).toBe(true);
    await expect(episode.step({ action: "look", playable: true })).rejects.toMatchObject({
      code: "EPISODE_DONE",
    });
    await episode.settled();
    await recorder.drain();
    const stored = await t.db.trajectory.findUniqueOrThrow({
      where: { episodeId: "e1" },
      include: { steps: true },
    });
    expect(stored).toMatchObject({ status: "done", length: 2 });
    expect(stored.steps).toHaveLength(2);

    // The trainer posts figures for a version that has no episodes yet: the transitions used so far carry over
    // (the run's chart is cumulative), and redrawing the figures keeps them.
    await refreshRunFigures(t.db, run.id, [0]);
    await recordTrainerMetrics(t.db, run.id, 1, { loss: 0.5 });
    const posted = () =>
      t.db.runMetric.findUniqueOrThrow({ where: { runId_iteration: { runId: run.id, iteration: 1 } } });
    expect(await posted()).toMatchObject({ realTransitions: 2, syntheticTransitions: 0 });
    await refreshRunFigures(t.db, run.id, [1]);
    expect(await posted()).toMatchObject({ realTransitions: 2, extra: { trainer: { loss: 0.5 } } });
  });
});

describeEachDatabase("the curriculum feed", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("keeps a group on one task, and ranks tasks by the variance of their returns", async () => {
    const run = await createExternalRun(t.db, {
      config: { domain: "household", tasksPerBatch: 4, seedTasks: 20 },
    });
    const feed = new CurriculumFeed(t.db, run.id, run.config, household);
    const a = await feed.next("g");
    const b = await feed.next("g");
    expect(b.task.id).toBe(a.task.id);
    expect([a.member, b.member]).toEqual([0, 1]);
    // The rest of the first batch, then a new batch: the task with the highest value comes first among the ranked.
    const seen = [a.task.id];
    for (let i = 0; i < 3; i++) seen.push((await feed.next()).task.id);
    expect(new Set(seen).size).toBe(4);
    const valued = household.task("train", 17);
    await t.db.task.create({ data: { id: valued.id, domain: "household", instruction: valued.instruction } });
    await t.db.taskStat.create({
      data: {
        runId: run.id,
        iteration: 1,
        taskId: valued.id,
        count: 4,
        meanReward: 0.5,
        variance: 0.25,
        successRate: 0.5,
      },
    });
    const next = [];
    for (let i = 0; i < 4; i++) next.push((await feed.next()).task.id);
    expect(next).toContain(valued.id);
  });
});

describeEachDatabase("stale episodes", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("are abandoned with the steps they have, unless they are this server's own", async () => {
    const run = await createExternalRun(t.db, { config: { domain: "household" } });
    const task = household.task("train", 0);
    await t.db.task.create({ data: { id: task.id, domain: "household", instruction: task.instruction } });
    const old = new Date(Date.now() - 60_000);
    await t.db.trajectory.create({
      data: {
        id: "stale",
        episodeId: "stale",
        status: "live",
        taskId: task.id,
        domain: "household",
        source: "real",
        runId: run.id,
        createdAt: old,
      },
    });
    await t.db.trajectory.create({
      data: {
        id: "fresh",
        episodeId: "fresh",
        status: "live",
        taskId: task.id,
        domain: "household",
        source: "real",
        runId: run.id,
      },
    });
    const service = new EnvService(t.db, { maxSessions: 2, idleMs: 1_000 });
    expect(await service.abandonStale()).toBe(1);
    expect((await t.db.trajectory.findUniqueOrThrow({ where: { id: "stale" } })).status).toBe("abandoned");
    expect((await t.db.trajectory.findUniqueOrThrow({ where: { id: "fresh" } })).status).toBe("live");
    await service.shutdown();
  });
});
