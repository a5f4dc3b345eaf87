/**
 * Embedded variations of an office request: another record of the same kind in the same world, the same kinds of
 * change in another (train) world, a second change added to a single one, or one of two changes dropped. Records
 * come from the world's own possible changes, so a variation reads like a seed task.
 */
import {
  changeCall,
  generateWorld,
  OFFICE_KINDS,
  type OfficeChange,
  type OfficeGoal,
  possibleChanges,
  type World,
} from "../envs/office";
import { officeGoals } from "./officeGoals";
import { OperatorTaskGenerator, type VariationOperator } from "./operators";

/** Changes of a kind other than the goal's own (closing a ticket and closing it again "as noted" is one change). */
function freshChanges(
  world: World,
  kind: OfficeChange["kind"],
  keep: readonly OfficeChange[],
): OfficeChange[] {
  const taken = new Set(keep.map((c) => changeCall(world, c)));
  return possibleChanges(world, kind).filter((c) => !taken.has(changeCall(world, c)));
}

const anotherRecord: VariationOperator<OfficeGoal> = {
  kind: "another record of the same kind in the same world",
  apply(goal, rng) {
    const at = rng.int(0, goal.changes.length - 1);
    const change = goal.changes[at];
    if (!change) return undefined;
    const world = generateWorld(goal.world);
    const others = goal.changes.filter((_, i) => i !== at);
    const options = freshChanges(world, change.kind, [...others, change]);
    if (options.length === 0) return undefined;
    const changes = goal.changes.slice();
    changes[at] = rng.pick(options);
    return { ...goal, changes };
  },
};

const anotherWorld: VariationOperator<OfficeGoal> = {
  kind: "the same kinds of change in another world",
  apply(goal, rng) {
    // Even seeds only: odd ones are the held-out test worlds.
    const seed = 2 * rng.int(0, 0x7fffffff);
    const world = generateWorld(seed);
    const changes: OfficeChange[] = [];
    for (const change of goal.changes) {
      const options = freshChanges(world, change.kind, changes);
      if (options.length === 0) return undefined;
      changes.push(rng.pick(options));
    }
    return { world: seed, changes };
  },
};

const addChange: VariationOperator<OfficeGoal> = {
  kind: "a second change of another kind",
  apply(goal, rng) {
    if (goal.changes.length !== 1) return undefined;
    const kinds = OFFICE_KINDS.filter((k) => k !== goal.changes[0]?.kind);
    const options = freshChanges(generateWorld(goal.world), rng.pick(kinds), goal.changes);
    if (options.length === 0) return undefined;
    return { ...goal, changes: [...goal.changes, rng.pick(options)] };
  },
};

const dropChange: VariationOperator<OfficeGoal> = {
  kind: "one of two changes",
  apply(goal, rng) {
    if (goal.changes.length < 2) return undefined;
    return { ...goal, changes: [rng.pick(goal.changes)] };
  },
};

export const OFFICE_OPERATORS: readonly VariationOperator<OfficeGoal>[] = [
  anotherRecord,
  anotherWorld,
  addChange,
  dropChange,
];

export function officeTaskGenerator(): OperatorTaskGenerator<OfficeGoal> {
  return new OperatorTaskGenerator("embedded:office", officeGoals, OFFICE_OPERATORS);
}
