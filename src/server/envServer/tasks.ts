import { isImportedDomain, type TrainingDomain } from "@/core/envs/trainingDomain";
import { SPLITS, type Split, type Task } from "@/core/types";
import type { Db } from "../db";
import { EnvServerError } from "./errors";

/** Train task `seed` of the domain: a reset by seed is reproducible in every version (an imported domain cycles). */
export function taskBySeed(domain: TrainingDomain, seed: number): Task {
  return domain.task("train", seed);
}

/**
 * A task by its id: a seed task of a built-in domain ("shop:train:17") without a database read, else a stored
 * task of the domain. In a built-in domain it must have a goal the real environment can score (a curriculum
 * variation); an imported domain's tasks (its imported instructions and their variations) have none and need none,
 * since only the synthetic environment plays them.
 */
export async function taskById(db: Db, domain: TrainingDomain, id: string): Promise<Task> {
  const imported = isImportedDomain(domain);
  const [name, split, index] = id.split(":");
  if (!imported && name === domain.name && SPLITS.includes(split as Split) && /^\d+$/.test(index ?? "")) {
    const task = domain.task(split as Split, Number(index));
    if (task.id === id) return task;
  }
  const row = await db.task.findUnique({ where: { id } });
  if (!row || row.domain !== domain.name || (!imported && row.goal === null))
    throw new EnvServerError(
      "UNKNOWN_TASK",
      imported
        ? `No ${domain.name} task with id ${id} (e.g. ${domain.task("train", 0).id})`
        : `No ${domain.name} task with id ${id} that the real environment can play (e.g. ${domain.name}:train:0)`,
    );
  return {
    id: row.id,
    domain: row.domain,
    instruction: row.instruction,
    split: row.split as Split,
    origin: row.origin as Task["origin"],
    ...(row.goal !== null ? { goal: row.goal } : {}),
    generation: row.generation,
    ...(row.parentId ? { parentId: row.parentId } : {}),
  };
}

/**
 * Test-split tasks are held out: a trainer that trained on them would report success on the tasks it learnt. Only a
 * reset that says it is an evaluation may play one.
 */
export function heldOutUnlessEvaluation(task: Task, evaluation: boolean): Task {
  if (task.split === "test" && !evaluation)
    throw new EnvServerError(
      "VALIDATION_ERROR",
      `task ${task.id} is a test-split task, held out for evaluation: send evaluation: true in the reset to play it`,
    );
  return task;
}
