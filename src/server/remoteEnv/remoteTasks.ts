/**
 * A remote environment's tasks, asked for once and kept: each task's instruction and first observation come from
 * resetting the environment on it (probeTask), and are stored as the task's row (origin "seed", the environment's
 * number in its goal). A registration that changes what the tasks are (URL, protocol, task ranges, the
 * instruction's pattern, reset fields) makes them be asked again.
 */
import { createHash } from "node:crypto";
import pLimit from "p-limit";
import { type RemoteEnvSpec, remoteTaskNumber } from "@/core/envs/remote/spec";
import type { Observation, Split, Task } from "@/core/types";
import type { Db } from "../db";
import { taskRow } from "../trajectories/saveEpisodes";
import { type RemoteTaskGoal, remoteGoal, remoteTaskId } from "./remoteDomain";

export interface TaskAddress {
  split: Split;
  index: number;
}

export type TaskProber = (
  spec: RemoteEnvSpec,
  number: number,
) => Promise<{ instruction: string; observation: Observation }>;

/** What the tasks' answers depend on in a registration: a change to any of these asks them again. */
export function registrationKey(spec: RemoteEnvSpec): string {
  const { url, protocol, tasks, instructionPattern, resetFields } = spec;
  return createHash("sha256")
    .update(
      JSON.stringify({ url, protocol, tasks, instructionPattern: instructionPattern ?? null, resetFields }),
    )
    .digest("hex")
    .slice(0, 16);
}

/**
 * The tasks at these addresses, from the store where it has them for this registration, else from the environment
 * (at most its concurrency at once), stored before they are returned. `onProgress` counts the asked ones.
 */
export async function prepareTasks(
  db: Db,
  spec: RemoteEnvSpec,
  addresses: readonly TaskAddress[],
  probe: TaskProber,
  onProgress?: (done: number, total: number) => void,
): Promise<Task[]> {
  const key = registrationKey(spec);
  const wanted = new Map(addresses.map((a) => [remoteTaskId(spec.name, a.split, a.index), a]));
  const rows = await db.task.findMany({ where: { id: { in: [...wanted.keys()] } } });
  const known = new Map<string, Task>();
  for (const row of rows) {
    const task = rowTask(row);
    if (remoteGoal(task)?.registration === key) known.set(task.id, task);
  }
  const missing = [...wanted].filter(([id]) => !known.has(id));
  let done = 0;
  const limit = pLimit(spec.concurrency);
  const asked = await Promise.all(
    missing.map(([id, address]) =>
      limit(async () => {
        const number = remoteTaskNumber(spec, address.split, address.index);
        const probed = await probe(spec, number);
        const goal: RemoteTaskGoal = { remote: { number, first: probed.observation, registration: key } };
        const task: Task = {
          id,
          domain: spec.name,
          instruction: probed.instruction,
          split: address.split,
          origin: "seed",
          goal,
          generation: 0,
        };
        onProgress?.(++done, missing.length);
        return task;
      }),
    ),
  );
  for (const task of asked) {
    const row = taskRow(task);
    await db.task.upsert({
      where: { id: task.id },
      create: row,
      update: { instruction: row.instruction, goal: row.goal ?? {}, split: row.split },
    });
    known.set(task.id, task);
  }
  return [...wanted.keys()].map((id) => known.get(id) as Task);
}

function rowTask(row: {
  id: string;
  domain: string;
  instruction: string;
  split: string;
  origin: string;
  goal: unknown;
  generation: number;
}): Task {
  return {
    id: row.id,
    domain: row.domain,
    instruction: row.instruction,
    split: row.split === "test" ? "test" : "train",
    origin: "seed",
    ...(row.goal != null ? { goal: row.goal } : {}),
    generation: row.generation,
  };
}
