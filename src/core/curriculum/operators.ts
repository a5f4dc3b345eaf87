/**
 * Embedded variation by operators: small, named edits of a goal ("another option value", "tighten the budget"),
 * each proposed edit checked like any other proposed goal. Operators are tried round-robin in an order drawn
 * from the rng, so a handful of variations of one parent spreads over different kinds of change.
 */
import type { Task } from "../types";
import type { Rng } from "../util/random";
import type { CurriculumGoals } from "./domainGoals";
import { assertCount, assertVariable, canonicalJson, type TaskGenerator } from "./generator";

export interface VariationOperator<G> {
  /** What the edit does, in words: shown in rejections and tests. */
  readonly kind: string;
  /** A proposed goal, or undefined when the edit does not apply to this goal (nothing left to remove, ...). */
  apply(goal: G, rng: Rng): unknown;
}

/** Tries per requested variation before giving up: small goals run out of distinct edits. */
const ATTEMPTS_PER_VARIATION = 12;
/** Rejections kept for inspection; an operator proposing invalid goals is a bug, and tests look here. */
const MAX_REJECTIONS_KEPT = 100;

export interface OperatorRejection {
  kind: string;
  errors: string[];
}

export class OperatorTaskGenerator<G> implements TaskGenerator {
  readonly rejections: OperatorRejection[] = [];

  constructor(
    readonly name: string,
    private readonly goals: CurriculumGoals<G>,
    private readonly operators: readonly VariationOperator<G>[],
  ) {}

  async vary(parent: Task, count: number, rng: Rng): Promise<Task[]> {
    assertVariable(parent, this.goals.domain);
    assertCount(count);
    const goal = this.goals.parentGoal(parent);
    const seen = new Set([canonicalJson(goal)]);
    const tasks: Task[] = [];
    const order = rng.shuffle(this.operators);
    const attempts = count * ATTEMPTS_PER_VARIATION + order.length;
    for (let attempt = 0; tasks.length < count && attempt < attempts; attempt++) {
      const operator = order[attempt % order.length] as VariationOperator<G>;
      const proposal = operator.apply(goal, rng);
      if (proposal === undefined) continue;
      const check = this.goals.check(proposal);
      if (!check.ok) {
        if (this.rejections.length < MAX_REJECTIONS_KEPT)
          this.rejections.push({ kind: operator.kind, errors: check.errors });
        continue;
      }
      const key = canonicalJson(check.goal);
      if (seen.has(key)) continue;
      seen.add(key);
      tasks.push(this.goals.toTask(check.goal, parent));
    }
    return tasks;
  }
}
