/**
 * What the curriculum needs from a domain's goals, whichever generator proposed them: a check (the domain's zod
 * schema and validator, plus the rules that keep variations out of the held-out test set), and the task a valid
 * goal becomes, with its lineage.
 */
import type { RealDomainName } from "../envs/names";
import type { Task } from "../types";

/**
 * Domains with a grounded task generator: built-in domains whose goals have a schema, a catalog or world to draw
 * from and a checker, so that variations are goals the real environment can score. Any other domain (imported,
 * remote, a built-in one without these) is varied blind only (blindVariations.ts).
 */
export const CURRICULUM_DOMAINS = [
  "shop",
  "household",
  "office",
] as const satisfies readonly RealDomainName[];
export type CurriculumDomain = (typeof CURRICULUM_DOMAINS)[number];

export type CurriculumGoalCheck<G> = { ok: true; goal: G } | { ok: false; errors: string[] };

export interface CurriculumGoals<G> {
  readonly domain: CurriculumDomain;
  /** Parses and validates a proposed goal; errors name the field and the reason, for logs and model repairs. */
  check(input: unknown): CurriculumGoalCheck<G>;
  /** The parent's own goal; throws naming the task when it has none usable. */
  parentGoal(parent: Task): G;
  /** The generated task for a checked goal: origin "generated", split "train", lineage from the parent. */
  toTask(goal: G, parent: Task): Task;
}

export function isCurriculumDomain(domain: string): domain is CurriculumDomain {
  return (CURRICULUM_DOMAINS as readonly string[]).includes(domain);
}
