import type { Db } from "@/server/db";
import { type Fence, fenceFor } from "@/server/queue/fence";
import type { JobPayload, JobType } from "@/server/queue/payloads";
import { claim, enqueue } from "@/server/queue/queue";
import { sleep } from "@/server/queue/worker";

/**
 * A job whose first worker lost its lease while working and a second worker claimed it: the split brain. Returns
 * both workers' fences; a write under `stale` must be refused, one under `current` must pass.
 */
export async function splitBrainFences<T extends JobType>(
  db: Db,
  type: T,
  payload: JobPayload<T>,
): Promise<{ stale: Fence; current: Fence }> {
  await enqueue(db, type, payload);
  const first = await claim(db, "starved-worker", 20);
  if (!first) throw new Error("splitBrainFences: nothing to claim");
  await sleep(40);
  const second = await claim(db, "rescuer", 60_000);
  if (second?.id !== first.id) throw new Error("splitBrainFences: the job was not reclaimed");
  return { stale: fenceFor(first, "starved-worker"), current: fenceFor(second, "rescuer") };
}
