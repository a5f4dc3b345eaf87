import type { RealDomain } from "@/core/envs/domain";
import { SPLITS, type Split, type Task } from "@/core/types";
import type { Db } from "../db";
import { EnvServerError } from "./errors";

/** Train task `seed` of the domain: a reset by seed is reproducible in every version. */
export function taskBySeed(domain: RealDomain, seed: number): Task {
  return domain.task("train", seed);
}

/**
 * A task by its id: a seed task of the domain ("shop:train:17") without a database read, else a stored task with
 * a goal the real environment can score (a curriculum variation). Imported tasks have no real environment.
 */
export async function taskById(db: Db, domain: RealDomain, id: string): Promise<Task> {
  const [name, split, index] = id.split(":");
  if (name === domain.name && SPLITS.includes(split as Split) && /^\d+$/.test(index ?? "")) {
    const task = domain.task(split as Split, Number(index));
    if (task.id === id) return task;
  }
  const row = await db.task.findUnique({ where: { id } });
  if (!row || row.domain !== domain.name || row.goal === null)
    throw new EnvServerError(
      "UNKNOWN_TASK",
      `No ${domain.name} task with id ${id} that the real environment can play (e.g. ${domain.name}:train:0)`,
    );
  return {
    id: row.id,
    domain: row.domain,
    instruction: row.instruction,
    split: row.split as Split,
    origin: row.origin as Task["origin"],
    goal: row.goal,
    generation: row.generation,
    ...(row.parentId ? { parentId: row.parentId } : {}),
  };
}
