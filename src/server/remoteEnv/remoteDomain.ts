/**
 * A registered remote environment as a `RealDomain`: the real environment of runs, offline collection,
 * evaluation, fidelity and the step view's real answer, as the built-in ones are. What a built-in domain computes
 * (a task's instruction, its first observation) a remote one learns by asking, once per task: `prepareTasks`
 * (remoteTasks.ts) asks before a run and keeps the answers, so that `task()` stays synchronous as the contract wants.
 */

import { decisionRng } from "@/core/envs/decisionRng";
import type { RealDomain } from "@/core/envs/domain";
import type { RemoteEnvSpec } from "@/core/envs/remote/spec";
import type { Environment, Observation, Policy, Split, Task } from "@/core/types";

/** What a remote task keeps in its `goal`: the environment's own number for it, and what its reset showed. */
export interface RemoteTaskGoal {
  remote: { number: number; first: Observation; registration: string };
}

export function remoteGoal(task: Task): RemoteTaskGoal["remote"] | undefined {
  const goal = task.goal as Partial<RemoteTaskGoal> | undefined;
  const remote = goal?.remote;
  return remote && typeof remote.number === "number" ? remote : undefined;
}

/** Where candidate actions come from besides the observation's own list (the domain's imported logs). */
export interface ActionSource {
  candidateActions(task: Task, observation: Observation): string[];
}

/** What opens episodes of the environment (the protocol clients; a fake in tests). */
export type EnvironmentOpener = (spec: RemoteEnvSpec, numberOf: (task: Task) => number) => Environment;

export const remoteTaskId = (name: string, split: Split, index: number) => `${name}:${split}:${index}`;

export class RemoteDomain implements RealDomain {
  readonly kind = "remote";
  readonly name: string;
  readonly maxSteps: number;
  private readonly byId = new Map<string, Task>();

  constructor(
    readonly spec: RemoteEnvSpec,
    private readonly open: EnvironmentOpener,
    /** The prepared tasks (remoteTasks.ts): what task() and tasks() can hand out. */
    prepared: readonly Task[],
  ) {
    this.name = spec.name;
    this.maxSteps = spec.maxSteps;
    for (const task of prepared) this.byId.set(task.id, task);
  }

  task(split: Split, index: number): Task {
    const task = this.byId.get(remoteTaskId(this.name, split, index));
    if (!task)
      throw new Error(
        `remote domain "${this.name}": ${split} task ${index} was not prepared (the run asks its environment for the tasks it uses before it starts)`,
      );
    return task;
  }

  /** The tasks of a split prepared so far (the first ones: prepareTasks asks for a split's tasks from 0). */
  taskCount(split: Split): number {
    let n = 0;
    while (this.byId.has(remoteTaskId(this.name, split, n))) n++;
    return n;
  }

  tasks(split: Split, count: number): Task[] {
    return Array.from({ length: count }, (_, i) => this.task(split, i));
  }

  createEnvironment(): Environment {
    return this.open(this.spec, (task) => {
      const remote = remoteGoal(task);
      if (!remote)
        throw new Error(
          `remote domain "${this.name}" cannot play task ${task.id} in its real environment: it is not one of the environment's own tasks (a curriculum variation lives in the synthetic environment only)`,
        );
      return remote.number;
    });
  }

  playable(task: Task): boolean {
    return remoteGoal(task) !== undefined;
  }

  /** The first observation its reset showed when the task was prepared; a variation starts from its root's. */
  async initialState(task: Task): Promise<Observation> {
    // A variation's id begins with its root task's (curriculum/generator.ts variationId).
    const root = this.byId.get(task.id.split("~")[0] as string);
    const own = remoteGoal(task) ?? (root ? remoteGoal(root) : undefined);
    if (own) return own.first;
    const env = this.createEnvironment();
    try {
      return await env.reset(task);
    } finally {
      await env.close?.();
    }
  }

  private logged: ActionSource | undefined;

  /**
   * Candidate actions learnt from the domain's imported logs: free-text slots filled as the logs fill them, and
   * actions for states that list none (core/envs/imported). Without them, only what the observation lists.
   */
  takeActionsFrom(logs: ActionSource): void {
    this.logged = logs;
  }

  /** The environment's admissible actions, as its observations list them; a free-text slot gets the instruction. */
  readonly candidateActions = (task: Task, observation: Observation): string[] => {
    if (this.logged) return this.logged.candidateActions(task, observation);
    return (observation.actions ?? []).map((a) => a.replace(/\[\.\.\.\]$/, `[${task.instruction}]`));
  };

  expert(): Policy {
    throw new Error(
      `remote domain "${this.name}" has no scripted expert: collect its offline data with the random policy, or import its logs`,
    );
  }

  /** Uniform over the listed actions, decided by (seed, task, actions so far): the same episode however runs interleave. */
  random(seed: number): Policy {
    return {
      act: async (task, history, observation) => {
        const candidates = this.candidateActions(task, observation);
        if (candidates.length === 0)
          throw new Error(
            `remote domain "${this.name}" lists no actions in this state of ${task.id}: a policy that chooses among candidates cannot act (the environment's observations must list their available actions)`,
          );
        const action = decisionRng(seed, task, history).pick(candidates);
        return { action, logprob: -Math.log(candidates.length) };
      },
    };
  }

  /** With no expert to perturb, the noisy policy of a remote domain is the random one. */
  noisy(seed: number, _epsilon: number): Policy {
    return this.random(seed);
  }
}
