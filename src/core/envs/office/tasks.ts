import type { Split, Task } from "../../types";
import { hashString, Rng } from "../../util/random";
import { type TaskMeta, taskFromGoal } from "../domain";
import {
  checkOfficeGoal,
  type OfficeChange,
  type OfficeGoal,
  officeInstruction,
  validateOfficeGoal,
} from "./goal";
import { generateWorld, type World } from "./world";

export const OFFICE_KINDS = ["close_ticket", "cancel_event", "delete_file", "close_noted"] as const;
export type OfficeKind = (typeof OFFICE_KINDS)[number];

/**
 * Task `index` of a split asks for one change of a kind (indices 0–3 mod 6) or for two changes of different kinds
 * (4 and 5), so any prefix of a split has every kind in equal shares and a third of two-change requests.
 */
const PLANS: readonly (readonly OfficeKind[])[] = [
  ["close_ticket"],
  ["cancel_event"],
  ["delete_file"],
  ["close_noted"],
  ["close_ticket", "cancel_event"],
  ["delete_file", "close_noted"],
];

/** Every change of a kind that a task could ask for in this world (valid on its own). */
export function possibleChanges(world: World, kind: OfficeKind): OfficeChange[] {
  const all: OfficeChange[] =
    kind === "close_ticket"
      ? world.tickets.map((t) => ({ kind, ticket: t.id }))
      : kind === "cancel_event"
        ? world.events.map((e) => ({ kind, event: e.id }))
        : kind === "delete_file"
          ? world.files.map((f) => ({ kind, path: f.path }))
          : world.files.map((f) => ({ kind, note: f.path }));
  return all.filter((change) => checkOfficeGoal({ world: world.seed, changes: [change] }).ok);
}

/** A goal of the plan in the world of `seed`, or undefined when the world has nothing to ask for. */
function goalIn(seed: number, plan: readonly OfficeKind[], rng: Rng): OfficeGoal | undefined {
  const world = generateWorld(seed);
  const changes: OfficeChange[] = [];
  for (const kind of plan) {
    const options = possibleChanges(world, kind);
    if (options.length === 0) return undefined;
    changes.push(rng.pick(options));
  }
  const goal = { world: seed, changes };
  return checkOfficeGoal(goal).ok ? goal : undefined;
}

/**
 * The seed tasks. Train worlds have even seeds and test worlds odd ones, so no world is in both splits; a world
 * with nothing of the plan's kinds to ask for gives way to the next seed of the same parity.
 */
export function officeSeedGoal(split: Split, index: number): OfficeGoal {
  if (!Number.isInteger(index) || index < 0) throw new Error(`office task index must be >= 0, got ${index}`);
  const hash = hashString(`office:${split}:${index}`);
  const plan = PLANS[index % PLANS.length] as readonly OfficeKind[];
  const rng = new Rng(hash);
  for (let attempt = 0; ; attempt++) {
    const seed = (((hash + 2 * attempt) & ~1) | (split === "test" ? 1 : 0)) >>> 0;
    const goal = goalIn(seed, plan, rng);
    if (goal) return goal;
  }
}

export function officeTaskFromGoal(goal: unknown, meta: TaskMeta): Task {
  const valid = validateOfficeGoal(goal);
  return taskFromGoal("office", officeInstruction(valid), valid, meta);
}

export function officeTask(split: Split, index: number): Task {
  return officeTaskFromGoal(officeSeedGoal(split, index), {
    id: `office:${split}:${index}`,
    split,
    origin: "seed",
    generation: 0,
  });
}
