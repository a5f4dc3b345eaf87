import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRunConfig } from "@/core/train/config";
import { auditStores } from "@/server/audit/audit";
import { collectOffline } from "@/server/collect/collectOffline";
import { createDb, type Db } from "@/server/db";
import { migrateDeploy } from "@/server/migrate";
import { forgetReplayBuffer, withReplayBuffer } from "@/server/replay/sharedReplayBuffer";
import { createRun } from "@/server/train/runStore";
import { workOnce } from "./helpers/worker";

/*
 * A full disk in the middle of a run (issue: after SQLITE_FULL the job failed its attempts and the run stayed
 * queued with no job that could ever run it). The data folder lives on a small tmpfs that a filler file fills; the
 * run must wait, spend no attempt, and finish by itself once the filler is gone, with stores the audit finds whole.
 * Mounting needs root, which CI and the development machines have.
 */
const mount = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-full-disk-"));
const filler = path.join(mount, "filler");
let db: Db;

/** Fills the disk to its last byte. */
function fill(): void {
  const fd = fs.openSync(filler, "w");
  const chunk = Buffer.alloc(256 * 1024, 1);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
    // What is left is smaller than a chunk: fill that too.
    for (let size = chunk.length / 2; size >= 512; size /= 2)
      try {
        for (;;) fs.writeSync(fd, chunk.subarray(0, size));
      } catch {}
  } finally {
    fs.closeSync(fd);
  }
}

beforeAll(async () => {
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=96m", "tmpfs", mount]);
  process.env.DREAMGYM_DATA_DIR = mount;
  process.env.LANCEDB_DIR = path.join(mount, "lancedb");
  const url = `file:${path.join(mount, "dreamgym.db")}`;
  await migrateDeploy(url);
  db = await createDb(url);
  await collectOffline(db, {
    domain: "household",
    policy: "noisy",
    episodes: 10,
    split: "train",
    epsilon: 0.3,
    seed: 1,
    offset: 0,
  });
}, 120_000);

afterAll(async () => {
  await forgetReplayBuffer();
  await db?.$disconnect();
  execFileSync("umount", ["-l", mount]);
  fs.rmSync(mount, { recursive: true, force: true });
});

describe("a full disk", () => {
  it("makes a run wait, spending no attempt, and the run finishes by itself once there is room again", async () => {
    const config = parseRunConfig({
      method: "dreamgym",
      domain: "household",
      iterations: 4,
      tasksPerBatch: 4,
      groupSize: 4,
      seedTasks: 10,
      evaluation: { interval: 4, episodes: 2 },
    });
    const { runId, jobId } = await createRun(db, config);
    // The disk fills once the run has stored its first iteration, and stays full for three seconds: the worker
    // meets it somewhere in the rest of the run (its rollouts, its checkpoint, LanceDB, its own bookkeeping).
    let freed = false;
    const filling = setInterval(() => {
      void db.run.findUnique({ where: { id: runId }, select: { iteration: true } }).then((run) => {
        if ((run?.iteration ?? 0) < 1 || fs.existsSync(filler) || freed) return;
        fill();
        setTimeout(() => {
          fs.rmSync(filler);
          freed = true;
        }, 3_000);
      });
    }, 20);
    await workOnce(db);
    clearInterval(filling);
    expect(freed).toBe(true);
    // The run waited: its attempt given back, the run queued with what it waits for, nothing failed.
    const waiting = await db.job.findUniqueOrThrow({ where: { id: jobId } });
    expect(waiting).toMatchObject({ status: "queued", attempts: 0 });
    expect(waiting.waits).toBeGreaterThan(0);
    expect(waiting.error).toMatch(/^waiting: the disk is full, tried again in \d+ s/);
    const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe("queued");
    expect(run.error).toMatch(/^waiting: the disk is full/);

    for (let i = 0; i < 10; i++) {
      const job = await db.job.findUniqueOrThrow({ where: { id: jobId } });
      if (job.status === "succeeded") break;
      await db.job.update({ where: { id: jobId }, data: { runAt: new Date() } });
      await workOnce(db);
    }
    const job = await db.job.findUniqueOrThrow({ where: { id: jobId } });
    expect(job).toMatchObject({ status: "succeeded", attempts: 1, waits: 0 });
    expect(await db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      status: "succeeded",
      iteration: 4,
    });
    await withReplayBuffer(db, async (store) => {
      expect((await auditStores(db, store)).problems).toEqual([]);
    });
  }, 300_000);
});
