/**
 * The curriculum's generation step: take the most valuable tasks (highest reward variance, so the ones on the
 * policy's frontier) and have a generator write variations of them. The new tasks join the pool as fresh,
 * unseen tasks; selectBatch ranks them by their parent's value until their own groups come in, and λ bounds how
 * many of them a batch may hold.
 */
import type { Task } from "../types";
import type { Rng } from "../util/random";
import type { TaskGenerator } from "./generator";
import type { TaskCandidate } from "./valueTable";

/**
 * Up to `count` parents: seen train tasks with a positive value, highest first, ties broken by a random key drawn
 * in task-id order. A task of value 0 is always solved or always failed: a variation of it teaches as little.
 * Test tasks are never parents (their variations would leak the test set into training).
 */
export function chooseParents(candidates: readonly TaskCandidate[], count: number, rng: Rng): Task[] {
  const eligible = candidates
    .filter((c) => c.seenCount > 0 && c.value > 0 && c.task.split === "train")
    .sort((a, b) => (a.task.id < b.task.id ? -1 : a.task.id > b.task.id ? 1 : 0))
    .map((c) => ({ c, tiebreak: rng.next() }));
  eligible.sort((a, b) => b.c.value - a.c.value || a.tiebreak - b.tiebreak);
  const parents: Task[] = [];
  const ids = new Set<string>();
  for (const { c } of eligible) {
    if (parents.length >= count) break;
    if (ids.has(c.task.id)) continue;
    ids.add(c.task.id);
    parents.push(c.task);
  }
  return parents;
}

export interface ProposeVariationsInput {
  candidates: readonly TaskCandidate[];
  generator: TaskGenerator;
  /** How many of the most valuable tasks to vary. */
  parents: number;
  perParent: number;
  rng: Rng;
  /** Ids already in the pool: a variation proposed again is not new. */
  known?: ReadonlySet<string>;
}

export interface ProposedVariations {
  parents: Task[];
  /** New tasks only, no id twice and none already known. */
  tasks: Task[];
}

export async function proposeVariations(input: ProposeVariationsInput): Promise<ProposedVariations> {
  const parents = chooseParents(input.candidates, input.parents, input.rng);
  const known = new Set(input.known ?? []);
  for (const c of input.candidates) known.add(c.task.id);
  const tasks: Task[] = [];
  // One parent after another, not in parallel: the rng is consumed in a fixed order, so a run replays.
  for (const parent of parents) {
    for (const task of await input.generator.vary(parent, input.perParent, input.rng)) {
      if (known.has(task.id)) continue;
      known.add(task.id);
      tasks.push(task);
    }
  }
  return { parents, tasks };
}
