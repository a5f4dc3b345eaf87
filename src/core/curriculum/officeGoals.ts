import { checkOfficeGoal, type OfficeGoal, officeTaskFromGoal } from "../envs/office";
import type { Task } from "../types";
import type { CurriculumGoals } from "./domainGoals";
import { variationMeta } from "./generator";

/**
 * Office goals for the curriculum: the domain's own check (each change names a record its description picks out,
 * and still needs making), plus the rule that keeps variations out of the held-out worlds: an even world seed,
 * because odd seeds are the test worlds.
 */
export const officeGoals: CurriculumGoals<OfficeGoal> = {
  domain: "office",
  check(input) {
    const world = (input as { world?: unknown } | null)?.world;
    // Said first: a goal in a test world is refused whatever else is wrong with it.
    const errors =
      typeof world === "number" && world % 2 === 1
        ? [`world: ${world} is odd, and odd worlds are held-out test worlds; use an even seed`]
        : [];
    const check = checkOfficeGoal(input);
    if (!check.ok) errors.push(...check.problems);
    return check.ok && errors.length === 0 ? { ok: true, goal: check.goal } : { ok: false, errors };
  },
  parentGoal(parent) {
    const check = checkOfficeGoal(parent.goal);
    if (!check.ok)
      throw new Error(`office task ${parent.id} has no valid goal: ${check.problems.join("; ")}`);
    return check.goal;
  },
  toTask(goal: OfficeGoal, parent: Task) {
    return officeTaskFromGoal(goal, variationMeta(parent, goal));
  },
};
