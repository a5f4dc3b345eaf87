/**
 * The task generator contract and the lineage every variation carries. A variation of a task keeps its action
 * types and changes its constraints or goal; it is a new task whose id is derived from its parent's id and its
 * goal, so the same variation proposed twice (in two iterations, or by two generators) is the same task.
 */
import type { Task } from "../types";
import { hashString, type Rng } from "../util/random";

/**
 * Who writes a run's variations (RunConfig curriculum.generator): from the seed instructions alone, or reading the
 * real environment (a built-in domain's catalog, room generator and goal checker).
 */
export const TASK_GENERATORS = ["blind", "grounded"] as const;
export type TaskGeneratorKind = (typeof TASK_GENERATORS)[number];

export interface TaskGenerator {
  readonly name: string;
  /**
   * Up to `count` distinct variations of `parent`, each with a valid goal of the parent's domain; fewer when the
   * generator cannot find more (a small catalog product, an invalid model reply). Never returns the parent's goal.
   */
  vary(parent: Task, count: number, rng: Rng): Promise<Task[]>;
}

/** JSON with object keys sorted at every level, so equal goals hash equally whatever order their keys were built in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** `${parent.id}~v${hash of the goal}`: stable, deterministic, and readable as "a variation of parent". */
export function variationId(parent: Task, goal: unknown): string {
  return `${parent.id}~v${hashString(canonicalJson(goal)).toString(36)}`;
}

/** The task fields a variation inherits: generated, in the train split, one generation below its parent. */
export interface VariationMeta {
  id: string;
  split: "train";
  origin: "generated";
  parentId: string;
  generation: number;
}

export function variationMeta(parent: Task, goal: unknown): VariationMeta {
  return {
    id: variationId(parent, goal),
    split: "train",
    origin: "generated",
    parentId: parent.id,
    generation: (parent.generation ?? 0) + 1,
  };
}

/**
 * Variations are training tasks. Varying a held-out test task would put (a close copy of) it into training and
 * inflate the real test success rate, so it is refused outright.
 */
export function assertVariable(parent: Task, domain: string): void {
  if (parent.domain !== domain)
    throw new Error(`task generator for ${domain}: task ${parent.id} belongs to domain "${parent.domain}"`);
  if (parent.split === "test")
    throw new Error(`task generator: ${parent.id} is a held-out test task; only train tasks may be varied`);
}

export function assertCount(count: number): void {
  if (!Number.isInteger(count) || count < 0)
    throw new RangeError(`task generator: count must be a natural number, got ${count}`);
}
