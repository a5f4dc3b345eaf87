/**
 * Embedded variations of an imported task, where only the logs' instructions are known: the parent's instruction
 * with one of the slots (names, dates, numbers, ids) in which it differs from a sibling of the same template
 * (same length, differing in at most MAX_DIFFERENCES slots and nowhere else) replaced by the sibling's. "How many orders did Alice place in May?" and "... Bob
 * ... June?" give "... Alice ... June?": a task the logs do not show, made of parts they do, which the experience
 * model can ground. A variation starts from its root task's first logged state (ImportedDomain.initialState).
 */
import type { Split, Task } from "../types";
import type { Rng } from "../util/random";
import { assertCount, assertVariable, type TaskGenerator, variationMeta } from "./generator";

/** Siblings differ from the parent in slots (a name, a month, a number), not in phrasing. */
const MAX_DIFFERENCES = 4;

/** A word that fills a slot of a template: a name, a month, a number, an id (not the first word, capitalised anyway). */
const isSlot = (word: string, position: number) =>
  /\d/.test(word) || (position > 0 && /^[A-Z"'#$]/.test(word));

const words = (instruction: string) => instruction.split(/\s+/).filter((w) => w !== "");

/** What the generator reads of a domain: its train tasks' instructions (an imported domain's, or a remote one's seed tasks). */
export interface InstructionSource {
  readonly name: string;
  tasks(split: Split, count: number): Task[];
  taskCount(split: Split): number;
}

export function importedTaskGenerator(domain: InstructionSource): TaskGenerator {
  const instructions = domain.tasks("train", domain.taskCount("train")).map((t) => t.instruction);
  return {
    name: "imported-recombination-v1",
    async vary(parent: Task, count: number, rng: Rng): Promise<Task[]> {
      assertVariable(parent, domain.name);
      assertCount(count);
      const own = words(parent.instruction);
      const proposals = new Set<string>();
      for (const other of instructions) {
        const theirs = words(other);
        if (theirs.length !== own.length) continue;
        const differing = own.flatMap((w, i) => (w !== theirs[i] ? [i] : []));
        if (differing.length === 0 || differing.length > MAX_DIFFERENCES) continue;
        // The same template: the two differ only in slots, not in what is asked.
        if (!differing.every((i) => isSlot(own[i]!, i) && isSlot(theirs[i]!, i))) continue;
        // A slot may span words ("Glass Teapot"): adjacent differing words are one slot, swapped whole. Swapping
        // every slot would give the sibling itself, so only a parent with two or more gives anything new.
        const spans: number[][] = [];
        for (const i of differing) {
          const last = spans.at(-1);
          if (last && last.at(-1) === i - 1) last.push(i);
          else spans.push([i]);
        }
        if (spans.length < 2) continue;
        for (const span of spans)
          proposals.add(own.map((w, j) => (span.includes(j) ? theirs[j] : w)).join(" "));
      }
      const known = new Set(instructions);
      const fresh = rng.shuffle([...proposals].filter((p) => !known.has(p)).sort());
      return fresh.slice(0, count).map((instruction) => {
        const meta = variationMeta(parent, { instruction });
        return {
          id: meta.id,
          domain: domain.name,
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
