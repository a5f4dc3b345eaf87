import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HAND_CHECKED } from "@/core/replay/testing";
import type { Step, TrajectorySource, Transition } from "@/core/types";
import { bulkInsert } from "../bulkInsert";
import type { Db } from "../db";
import { insertSteps } from "../trajectories/insertSteps";
import type { LanceReplayBuffer } from "./lanceReplayBuffer";

/** Test helpers: a temp LanceDB folder, Prisma steps made from the hand-checked transitions, and both sides' ids. */
export function tempLanceDir(): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-lance-"));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Every row id in the LanceDB table, sorted. */
export async function lanceIds(buffer: LanceReplayBuffer): Promise<string[]> {
  const ids: string[] = [];
  for await (const batch of buffer.ids()) ids.push(...batch);
  return ids.sort();
}

/** Every Step id in Prisma, sorted: what the table should hold once in sync. */
export async function stepIds(db: Db): Promise<string[]> {
  return (await db.step.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((s) => s.id);
}

/** A transition as the only step of its trajectory. */
function firstStepRow(t: Step) {
  return {
    index: 0,
    state: t.state.text,
    action: t.action,
    nextState: t.next.text,
    reward: t.reward,
    done: t.done,
    success: t.success,
    valid: t.valid,
  };
}

/**
 * Writes `copies` one-step trajectories per hand-checked transition (varied by copy number so that the rows
 * differ) straight through Prisma, returning how many steps were written.
 */
export async function writeHandSteps(db: Db, copies = 1, source?: TrajectorySource): Promise<number> {
  let written = 0;
  for (const t of HAND_CHECKED) {
    const taskId = `${t.domain}:train:${t.id}`;
    await db.task.upsert({
      where: { id: taskId },
      create: { id: taskId, domain: t.domain, instruction: t.instruction, split: "train", origin: "seed" },
      update: {},
    });
    for (let c = 0; c < copies; c++) {
      await db.trajectory.create({
        data: {
          taskId,
          domain: t.domain,
          source: source ?? t.source,
          policy: "test",
          length: 1,
          steps: {
            create: [{ ...firstStepRow(t), state: c === 0 ? t.state.text : `${t.state.text} (visit ${c})` }],
          },
        },
      });
      written++;
    }
  }
  return written;
}

/** Many distinct household-like transitions, for tests that need a table big enough to index. */
export function manyTransitions(count: number, prefix = "m"): Transition[] {
  const objects = ["apple", "mug", "knife", "bread", "plate", "pen", "book"];
  const places = ["cabinet", "drawer", "countertop", "shelf", "fridge", "desk"];
  return Array.from({ length: count }, (_, i) => {
    const place = `${places[i % places.length]} ${1 + (i % 9)}`;
    const object = `${objects[(i * 7) % objects.length]} ${1 + (i % 4)}`;
    return {
      id: `${prefix}-${i}`,
      domain: "household",
      source: i % 3 === 0 ? "synthetic" : "offline",
      instruction: `put a ${objects[i % objects.length]} in ${places[(i + 2) % places.length]}`,
      taskId: `household:train:${i % 50}`,
      state: { text: `You arrive at ${place}. On the ${place}, you see a ${object}. Step ${prefix}${i}.` },
      action: i % 2 ? `take ${object} from ${place}` : `open ${place}`,
      next: { text: `You pick up the ${object} from the ${place}.` },
      reward: 0,
      done: false,
      success: false,
      valid: true,
    };
  });
}

/**
 * `count` pending steps of manyTransitions, one per trajectory, written in bulk as a run stores its rollouts: a
 * backlog for the indexer in well under a second. Returns their ids.
 */
export async function writeManySteps(db: Db, count: number): Promise<string[]> {
  // manyTransitions names a task for every transition.
  const transitions = manyTransitions(count).map((t) => ({ ...t, taskId: t.taskId ?? "household:train:0" }));
  const tasks = new Map(transitions.map((t) => [t.taskId, t.instruction]));
  await db.task.createMany({
    data: [...tasks].map(([id, instruction]) => ({
      id,
      domain: "household",
      instruction,
      split: "train",
      origin: "seed",
    })),
  });
  return db.$transaction(async (tx) => {
    await bulkInsert(
      tx,
      "Trajectory",
      ["id", "taskId", "domain", "source", "policy", "length", "createdAt"],
      transitions.map((t) => [`trajectory-${t.id}`, t.taskId, t.domain, t.source, "test", 1, new Date()]),
    );
    return insertSteps(
      tx,
      transitions.map((t) => ({ trajectoryId: `trajectory-${t.id}`, ...firstStepRow(t) })),
    );
  });
}
