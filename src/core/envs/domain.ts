import type { Environment, Observation, Policy, Split, Task, TaskOrigin } from "../types";

/**
 * What a domain declares about its observations for the experience model, where its offline data cannot teach it:
 * the model learns everything else from the demonstrations (core/experience holds no domain's rules). Plain data
 * (patterns as regular-expression sources), so that it travels with the model's memory to prediction threads.
 */
export interface DomainDeclarations {
  /**
   * An upper bound an instruction may set on amounts its pages show: `instruction` finds the bound in an
   * instruction, `amount` every amount on a page; in each, the number is the first capture group that matched.
   */
  amountBound?: { instruction: string; amount: string };
}

/**
 * A real text environment with everything the rest of DreamGym needs from it: its tasks (train and held-out
 * test splits, stable across versions), a fresh environment per episode, candidate actions for policies that
 * choose among candidates, and the reference policies used for offline data.
 */
export interface RealDomain {
  readonly name: string;
  readonly maxSteps: number;
  /** Task `index` of a split; deterministic: the same (split, index) is the same task in every version. */
  task(split: Split, index: number): Task;
  /** The first `count` tasks of a split. */
  tasks(split: Split, count: number): Task[];
  createEnvironment(): Environment;
  /** The actions a policy may choose from in this state (admissible actions, plus e.g. search queries). */
  candidateActions(task: Task, observation: Observation): string[];
  /** A scripted policy that reads the hidden goal; success >= 95% on test tasks. */
  expert(): Policy;
  /** Uniform over candidate actions, deterministic under its seed. */
  random(seed: number): Policy;
  /** The expert, but with probability epsilon a random candidate action instead. */
  noisy(seed: number, epsilon: number): Policy;
  /**
   * The task's first observation without opening an episode, where the domain keeps it (a remote environment,
   * whose every reset costs a request and a slot); else the synthetic environment resets a real one for it.
   */
  initialState?(task: Task): Promise<Observation>;
  /**
   * Whether the real environment can play this task. Absent: every task. A remote environment plays only its own
   * numbered tasks, not the curriculum's variations, which then live in the synthetic environment alone.
   */
  playable?(task: Task): boolean;
  /** Rules of its observations that its offline data cannot teach the experience model. */
  readonly declarations?: DomainDeclarations;
}

/** Identity and lineage of a task built around a goal (a seed task or a curriculum variation). */
export interface TaskMeta {
  id: string;
  split: Split;
  origin?: TaskOrigin;
  parentId?: string;
  generation?: number;
}

/** A Task around an already validated goal, with lineage filled in the same way in every domain. */
export function taskFromGoal(domain: string, instruction: string, goal: unknown, meta: TaskMeta): Task {
  const task: Task = {
    id: meta.id,
    domain,
    instruction,
    split: meta.split,
    origin: meta.origin ?? "generated",
    goal,
    generation: meta.generation ?? 0,
  };
  if (meta.parentId !== undefined) task.parentId = meta.parentId;
  return task;
}
