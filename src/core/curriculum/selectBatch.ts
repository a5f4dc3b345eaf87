/**
 * Which tasks the next iteration rolls out: the most valuable ones, with room kept for tasks never tried.
 *
 * The batch is filled in three passes, each skipping tasks already in it and generated tasks beyond the λ bound:
 * 1. explore: ⌈exploreShare · B⌉ slots are reserved for unseen tasks (no statistics yet), drawn at random. We
 *    reserve slots rather than give unseen tasks an optimistic value because an optimistic value (say the maximum
 *    1/4) puts every unseen task ahead of every seen one: with hundreds of seed tasks the first dozens of
 *    iterations would only explore and never train on the frontier. Reserved slots explore at a steady rate and
 *    no unseen task starves, since each batch draws afresh among those still unseen.
 * 2. value: the rest by task value, highest first. A fresh variation (unseen, origin "generated") whose parent is
 *    in the pool with a positive value ranks here with its parent's value: the parent was varied because it sat
 *    on the frontier, and a variation keeps its action types, so it is the curriculum's best guess at a task of
 *    the same worth. Tasks seen with value 0 (always solved or always failed) are left out of this pass.
 * 3. fill: if slots remain, the other unseen tasks, then tasks of value 0, at random.
 * At most ⌊λ · B⌋ tasks of the batch are generated (λ bounds the generated share; λ = 0 means seed and imported
 * tasks only). Ties are broken by a random key per task, drawn from the rng in task-id order so the choice does
 * not depend on the order candidates arrive in. The batch is shorter than B only when the pool (under the λ
 * bound) has fewer tasks.
 */
import type { Task } from "../types";
import type { Rng } from "../util/random";
import type { TaskCandidate } from "./valueTable";

export const DEFAULT_EXPLORE_SHARE = 0.25;

export interface SelectBatchInput {
  /** The pool with its statistics (TaskValueTable.candidates); seenCount 0 marks an unseen task. */
  candidates: readonly TaskCandidate[];
  batchSize: number;
  /** Upper bound on the share of generated tasks in the batch, in [0, 1]. */
  lambda: number;
  /** Fresh variations not yet among the candidates; they join the pool as unseen tasks. */
  generated?: readonly Task[];
  rng: Rng;
  /** Share of the batch reserved for unseen tasks, in [0, 1]; default 1/4. */
  exploreShare?: number;
}

/** Why a task is in the batch: reserved exploration, its (inherited) value, or filling leftover slots. */
export type PickReason = "explore" | "value" | "lineage" | "fill";

export interface BatchPick {
  task: Task;
  reason: PickReason;
  /** The value it was ranked by: its own, its parent's (lineage), or 0 when it was not ranked. */
  score: number;
}

export interface BatchSelection {
  tasks: Task[];
  picks: BatchPick[];
  /** ⌊λ · B⌋: the most generated tasks this batch could hold. */
  generatedCap: number;
}

interface PoolEntry extends TaskCandidate {
  tiebreak: number;
}

/** Guards ⌊0.29 · 100⌋ = 28 and ⌈0.3 · 10⌉ = 4 against floating-point error. */
const EPS = 1e-9;

function checkInput(input: SelectBatchInput, exploreShare: number): void {
  const { batchSize, lambda } = input;
  if (!Number.isInteger(batchSize) || batchSize < 0)
    throw new RangeError(`selectBatch: batchSize must be a natural number, got ${batchSize}`);
  if (!(lambda >= 0 && lambda <= 1))
    throw new RangeError(`selectBatch: lambda must be in [0, 1], got ${lambda}`);
  if (!(exploreShare >= 0 && exploreShare <= 1))
    throw new RangeError(`selectBatch: exploreShare must be in [0, 1], got ${exploreShare}`);
}

/** One entry per task id; a task listed twice keeps the entry with the most statistics. */
function buildPool(input: SelectBatchInput): PoolEntry[] {
  const byId = new Map<string, TaskCandidate>();
  const offer = (c: TaskCandidate): void => {
    const known = byId.get(c.task.id);
    if (known === undefined || c.seenCount > known.seenCount) byId.set(c.task.id, c);
  };
  for (const c of input.candidates) offer(c);
  for (const task of input.generated ?? []) offer({ task, value: 0, seenCount: 0 });
  const ids = [...byId.keys()].sort();
  return ids.map((id) => ({ ...(byId.get(id) as TaskCandidate), tiebreak: input.rng.next() }));
}

const byTiebreak = (a: PoolEntry, b: PoolEntry): number => a.tiebreak - b.tiebreak;

export function selectBatch(input: SelectBatchInput): BatchSelection {
  const exploreShare = input.exploreShare ?? DEFAULT_EXPLORE_SHARE;
  checkInput(input, exploreShare);
  const { batchSize } = input;
  const generatedCap = Math.floor(input.lambda * batchSize + EPS);
  const pool = buildPool(input);
  const byId = new Map(pool.map((e) => [e.task.id, e]));

  const picks: BatchPick[] = [];
  const chosen = new Set<string>();
  let generatedCount = 0;
  const take = (entry: PoolEntry, reason: PickReason, score: number): boolean => {
    if (picks.length >= batchSize || chosen.has(entry.task.id)) return false;
    const generated = entry.task.origin === "generated";
    if (generated && generatedCount >= generatedCap) return false;
    chosen.add(entry.task.id);
    if (generated) generatedCount++;
    picks.push({ task: entry.task, reason, score });
    return true;
  };

  const inherited = (entry: PoolEntry): number => {
    if (entry.seenCount > 0 || entry.task.origin !== "generated" || entry.task.parentId === undefined)
      return 0;
    const parent = byId.get(entry.task.parentId);
    return parent !== undefined && parent.seenCount > 0 ? parent.value : 0;
  };
  const ranked: { entry: PoolEntry; score: number; reason: PickReason }[] = [];
  const unseen: PoolEntry[] = [];
  const spent: PoolEntry[] = [];
  for (const entry of pool) {
    const fromParent = inherited(entry);
    if (entry.seenCount > 0 && entry.value > 0) ranked.push({ entry, score: entry.value, reason: "value" });
    else if (fromParent > 0) ranked.push({ entry, score: fromParent, reason: "lineage" });
    else if (entry.seenCount === 0) unseen.push(entry);
    else spent.push(entry);
  }
  ranked.sort((a, b) => b.score - a.score || a.entry.tiebreak - b.entry.tiebreak);
  unseen.sort(byTiebreak);
  spent.sort(byTiebreak);

  const exploreSlots = Math.min(batchSize, Math.ceil(exploreShare * batchSize - EPS));
  let explored = 0;
  for (const entry of unseen) {
    if (explored >= exploreSlots) break;
    if (take(entry, "explore", 0)) explored++;
  }
  for (const r of ranked) take(r.entry, r.reason, r.score);
  for (const entry of unseen) take(entry, "fill", 0);
  for (const entry of spent) take(entry, "fill", 0);

  return { tasks: picks.map((p) => p.task), picks, generatedCap };
}
