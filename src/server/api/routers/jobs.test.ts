import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../../tests/helpers/testDb";
import { workOnce } from "../../../../tests/helpers/worker";
import { SAMPLE_FILE } from "../../demo/sampleFile";
import { createCaller } from "../root";
import { signedIn } from "../testing";

let t: TestDb;
describeEachDatabase("jobs", (dialect) => {
  beforeEach(async () => {
    t = await createTestDb(dialect);
    process.env.DREAMGYM_DATA_DIR = t.dir;
  });
  afterEach(async () => {
    await t.cleanup();
  });

  describe("jobs router", () => {
    it("refuses a bad upload with its line numbers and queues nothing", async () => {
      const caller = createCaller(signedIn(t.db));
      await expect(
        caller.jobs.importTrajectories({ name: "bad.jsonl", content: '{"domain":"web"}\n\n[1,2]\n' }),
      ).rejects.toThrow(/bad\.jsonl was rejected \(2 bad lines\)[\s\S]*line 1: [\s\S]*line 3: /);
      expect(await t.db.job.count()).toBe(0);
    });

    it("refuses an empty upload as empty, not as a bad line", async () => {
      const caller = createCaller(signedIn(t.db));
      for (const content of ["", "\n  \n"])
        await expect(caller.jobs.importTrajectories({ name: "empty.jsonl", content })).rejects.toThrow(
          "empty.jsonl was rejected, nothing imported: the file is empty",
        );
      expect(await t.db.job.count()).toBe(0);
    });

    it("queues a good upload, which the worker then imports", async () => {
      const caller = createCaller(signedIn(t.db));
      const content = fs.readFileSync(SAMPLE_FILE, "utf8");
      const { jobId, trajectories } = await caller.jobs.importTrajectories({ name: "sample.jsonl", content });
      expect(trajectories).toBe(6);
      expect(await t.db.trajectory.count()).toBe(0); // the web did not do the work
      await workOnce(t.db);
      const job = await caller.jobs.get({ id: jobId });
      expect(job.status).toBe("succeeded");
      expect(job.result).toMatchObject({ imported: 6, duplicates: 0 });
      expect(await t.db.trajectory.count()).toBe(6);
      const list = await caller.trajectories.list({ domain: "web", search: "newsletter" });
      expect(list.total).toBe(2);
    });

    it("converts an upload in another format, queues it as our JSONL, and refuses a bad one by its lines", async () => {
      const caller = createCaller(signedIn(t.db));
      const trace = (id: number, action: unknown = "stop [5]") => ({
        task_id: id,
        intent: `question ${id}`,
        trajectory: [
          { observation: "[1] RootWebArea 'Dashboard'", action: "click [12]" },
          { observation: "[1] RootWebArea 'Reports'", action },
        ],
        success: true,
      });
      await expect(
        caller.jobs.importTrajectories({
          name: "traces.json",
          content: JSON.stringify([trace(1), trace(2, "")], null, 1),
          format: "webarena",
        }),
      ).rejects.toThrow(
        /traces\.json was rejected \(1 bad line\)[\s\S]*line 17: trace 2 \(task_id "2"\): trajectory\[1\]\.action/,
      );
      expect(await t.db.job.count()).toBe(0);

      const content = JSON.stringify([trace(1), trace(2)]);
      const queued = await caller.jobs.importTrajectories({ name: "traces.json", content, format: "auto" });
      expect(queued).toMatchObject({ trajectories: 2, format: "webarena" });
      await workOnce(t.db);
      expect((await caller.jobs.get({ id: queued.jobId })).result).toMatchObject({
        imported: 2,
        duplicates: 0,
      });
      expect(await t.db.step.count()).toBe(4);
      const task = await t.db.task.findUniqueOrThrow({ where: { id: "web:2" } });
      expect(task).toMatchObject({ instruction: "question 2", origin: "imported" });
    });

    it("validates a collect request before queueing it", async () => {
      const caller = createCaller(signedIn(t.db));
      await expect(
        caller.jobs.collect({ domain: "shop", policy: "expert", episodes: 0 } as never),
      ).rejects.toThrow(/episodes/);
      await caller.jobs.collect({
        domain: "shop",
        policy: "noisy",
        episodes: 5,
        split: "train",
        epsilon: 0.2,
        seed: 1,
        offset: 0,
      });
      const [job] = await caller.jobs.list({});
      expect(job?.type).toBe("collect");
      expect(job?.payload).toMatchObject({ domain: "shop", episodes: 5, epsilon: 0.2 });
    });
  });
});
