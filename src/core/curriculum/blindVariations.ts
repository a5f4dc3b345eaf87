/**
 * The blind task generator, the curriculum's by default in every domain. As the paper's generator does, it writes
 * new instructions from the seed tasks' instructions alone: it reads no catalog, no room generator and no goal
 * checker, and nothing checks a variation against the real environment. What a variation's episodes do is the
 * experience model's to say (or, where a run has one, the judge's); a variation has no hidden goal, so the real
 * environment never plays it (RealDomain.playable, phases.ts) and its synthetic episodes start from its root seed
 * task's first state (train/startState.ts).
 *
 * How, without a language model and without knowing the domain: two seed instructions of one template differ in a
 * few short spans ("put a hot bread on diningtable." and "put a cool pot in sinkbasin." differ in "hot"/"cool",
 * "bread"/"pot" and "on diningtable."/"in sinkbasin."); taking one span of the sibling into the parent gives a task
 * that no seed shows, made of parts that seeds do ("put a cool bread on diningtable."). Only the words of the
 * instructions are read, so it works alike on the built-in domains, imported logs and remote environments.
 */
import { diff } from "fast-myers-diff";
import type { Split, Task } from "../types";
import type { Rng } from "../util/random";
import { assertCount, assertVariable, type TaskGenerator, variationMeta } from "./generator";

/** A span longer than this on either side is another phrasing, not another value of a slot. */
const MAX_SLOT_WORDS = 3;
/** Two instructions are of one template when they share at least this share of the longer one's words. */
const MIN_SHARED = 0.6;

const words = (instruction: string) => instruction.split(/\s+/).filter((w) => w !== "");

/** Whether two instructions can share MIN_SHARED of their words (a bound that spares most diffs). */
function mayShareTemplate(
  own: readonly string[],
  seed: { words: readonly string[]; distinct: ReadonlySet<string> },
) {
  const needed = MIN_SHARED * Math.max(own.length, seed.words.length);
  if (Math.min(own.length, seed.words.length) < needed) return false;
  let shared = 0;
  for (const w of own) if (seed.distinct.has(w)) shared++;
  return shared >= needed;
}

/** The parent with one span of a sibling of its template taken in, for each span in which they differ. */
function recombinations(own: readonly string[], theirs: readonly string[]): string[] {
  const spans = [...diff(own, theirs)];
  // One differing span: taking it in gives the sibling itself.
  if (spans.length < 2) return [];
  const changed = spans.reduce((n, [sx, ex]) => n + (ex - sx), 0);
  if (own.length - changed < MIN_SHARED * Math.max(own.length, theirs.length)) return [];
  if (spans.some(([sx, ex, sy, ey]) => ex - sx > MAX_SLOT_WORDS || ey - sy > MAX_SLOT_WORDS)) return [];
  return spans.map(([sx, ex, sy, ey]) =>
    [...own.slice(0, sx), ...theirs.slice(sy, ey), ...own.slice(ex)].join(" "),
  );
}

/** A domain that lists its train tasks: an imported domain (its logs) or a remote one (its registered tasks). */
export interface InstructionSource {
  readonly name: string;
  tasks(split: Split, count: number): Task[];
  taskCount(split: Split): number;
}

/** Every train instruction of such a domain: the seeds its blind generator recombines. */
export function trainInstructions(source: InstructionSource): string[] {
  return source.tasks("train", source.taskCount("train")).map((t) => t.instruction);
}

/**
 * The blind generator of `domain` over its seed instructions (a built-in domain's seed tasks, an imported domain's
 * train logs, a remote environment's registered train tasks). Deterministic under the rng.
 */
export function blindTaskGenerator(domain: string, seedInstructions: readonly string[]): TaskGenerator {
  const seeds = [...new Set(seedInstructions)].map((instruction) => {
    const w = words(instruction);
    return { instruction, words: w, distinct: new Set(w) };
  });
  const known = new Set(seedInstructions);
  // A task of value is varied again and again (and its siblings do not change): its proposals are kept.
  const proposalsOf = new Map<string, string[]>();
  const propose = (instruction: string): string[] => {
    const cached = proposalsOf.get(instruction);
    if (cached) return cached;
    const own = words(instruction);
    const proposals = new Set<string>();
    for (const seed of seeds) {
      if (seed.instruction === instruction || !mayShareTemplate(own, seed)) continue;
      for (const proposal of recombinations(own, seed.words)) proposals.add(proposal);
    }
    const fresh = [...proposals].filter((p) => !known.has(p) && p !== instruction).sort();
    proposalsOf.set(instruction, fresh);
    return fresh;
  };
  return {
    name: "blind-recombination-v2",
    async vary(parent: Task, count: number, rng: Rng): Promise<Task[]> {
      assertVariable(parent, domain);
      assertCount(count);
      return rng
        .shuffle(propose(parent.instruction))
        .slice(0, count)
        .map((instruction) => {
          const meta = variationMeta(parent, { instruction });
          return {
            id: meta.id,
            domain,
            instruction,
            split: meta.split,
            origin: meta.origin,
            parentId: meta.parentId,
            generation: meta.generation,
          };
        });
    },
  };
}
