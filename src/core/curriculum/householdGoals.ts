import { checkHouseholdGoal, type HouseholdGoal, householdTaskFromGoal } from "../envs/household";
import { APPLIANCE } from "../envs/household/catalog";
import type { Task } from "../types";
import type { CurriculumGoals } from "./domainGoals";
import { variationMeta } from "./generator";

/**
 * Household goals for the curriculum: the domain's own check (the room kind has the object, the target, the
 * appliance, and the task type can treat the object), plus two rules of the seed tasks the validator leaves to
 * task authors: an even room seed, because odd seeds are the held-out test rooms; and a target other than the
 * task's own appliance, because "cool some pan and put it in fridge" is half done by the treatment itself and
 * teaches nothing the plain tasks do not.
 */
export const householdGoals: CurriculumGoals<HouseholdGoal> = {
  domain: "household",
  check(input) {
    const check = checkHouseholdGoal(input);
    if (!check.ok) return { ok: false, errors: check.problems };
    const { goal } = check;
    const errors: string[] = [];
    if (goal.room.seed % 2 === 1) {
      errors.push(
        `room.seed: ${goal.room.seed} is odd, and odd seeds are held-out test rooms; use an even seed`,
      );
    }
    if (goal.target === APPLIANCE[goal.type]) {
      errors.push(
        `target: ${goal.type} uses the ${goal.target} itself; choose another receptacle as the target`,
      );
    }
    return errors.length > 0 ? { ok: false, errors } : check;
  },
  parentGoal(parent) {
    const check = checkHouseholdGoal(parent.goal);
    if (!check.ok)
      throw new Error(`household task ${parent.id} has no valid goal: ${check.problems.join("; ")}`);
    return check.goal;
  },
  toTask(goal: HouseholdGoal, parent: Task) {
    return householdTaskFromGoal(goal, variationMeta(parent, goal));
  },
};
