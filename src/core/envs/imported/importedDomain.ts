import { LRUCache } from "lru-cache";
import MiniSearch from "minisearch";
import type { Observation, Split, Step, Task } from "../../types";
import { contentWords, searchTokens } from "../../util/words";

/** One logged episode of an imported task, steps in order. */
export interface LoggedEpisode<S extends Step = Step> {
  taskId: string;
  steps: S[];
  success: boolean;
  /** Which policy acted (expert, noisy-0.3, random, …), where the logs say: base rates are per behaviour. */
  policy?: string;
}

export interface ImportedDomainData<S extends Step = Step> {
  name: string;
  /** The imported tasks with their splits (the logs' instructions). */
  tasks: Task[];
  episodes: LoggedEpisode<S>[];
}

/** Below these, an imported domain is for browsing and annotation, not for training. */
export const MIN_TRAIN_TASKS = 4;
export const MIN_TEST_TASKS = 2;
/** Candidate actions a state without logged admissible actions borrows from its most similar logged states. */
const SIMILAR_STATES = 5;
const MAX_CANDIDATES = 24;
/** A cap shows as at least this many logs at the longest length, and this many times as many as one step shorter. */
const CAP_PILE_MIN = 5;
const CAP_PILE_RATIO = 3;
/** An admissible action whose argument is free text the agent writes, as logs list it: "search[...]", "type[<text>]". */
const SLOT = /^([a-z_]+)\[(?:\.\.\.|…|<[^>]*>)\]$/i;
const VERB = /^([a-z_]+)\[/i;

/**
 * How long an episode may last. Logs of an environment with a step limit pile up at that limit (WebShop's 15th
 * step ends the episode, so many of its failed logs are exactly 15 long); where the longest length holds such a
 * pile, it is the source's limit and the synthetic environment keeps it, since a policy given more steps than the
 * real agent will have learns plans it cannot finish there. Otherwise an episode may last half again as long as
 * the longest log.
 */
export function stepLimit(lengths: number[]): number {
  const longest = Math.max(...lengths);
  const atLongest = lengths.filter((n) => n === longest).length;
  const justBelow = lengths.filter((n) => n === longest - 1).length;
  if (atLongest >= CAP_PILE_MIN && atLongest >= CAP_PILE_RATIO * justBelow) return Math.min(50, longest);
  return Math.min(50, Math.max(5, Math.ceil(1.5 * longest)));
}

/** Why an imported domain cannot be trained on: what it has and what it lacks. */
export class NotTrainableError extends Error {}

/**
 * A domain that exists only as logs (WebArena traces, a company's agent logs, AgentGym's AgentTraj): its tasks
 * are the imported instructions with their splits, each task starts from the first state its logs show, its
 * actions are the logged admissible actions where the logs list them (otherwise the actions taken in the most
 * similar logged states), and an episode lasts as long as the logs' own step limit (see stepLimit). There is no real
 * environment: only the synthetic one, grounded in these logs, can be trained in, and evaluation is by proxies.
 */
export class ImportedDomain<S extends Step = Step> {
  readonly kind = "imported";
  readonly name: string;
  readonly maxSteps: number;
  private readonly bySplit: Record<Split, Task[]>;
  private readonly byId = new Map<string, Task>();
  private readonly firstState = new Map<string, Observation>();
  private readonly logs: LoggedEpisode<S>[];
  private readonly taskActions = new Map<string, string[]>();
  private readonly states: { id: number; text: string; actions: string[] }[] = [];
  private readonly index: MiniSearch<{ id: number; text: string }>;
  /** Listed actions the logs treat as templates ("stop[answer]"): never taken as listed, and filled off the list. */
  private readonly templates = new Set<string>();

  constructor(data: ImportedDomainData<S>) {
    this.name = data.name;
    this.logs = data.episodes.filter((e) => e.steps.length > 0);
    const logged = new Set(this.logs.map((e) => e.taskId));
    const tasks = data.tasks
      .filter((t) => logged.has(t.id))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.bySplit = {
      train: tasks.filter((t) => t.split === "train"),
      test: tasks.filter((t) => t.split === "test"),
    };
    if (this.bySplit.train.length < MIN_TRAIN_TASKS || this.bySplit.test.length < MIN_TEST_TASKS)
      throw new NotTrainableError(
        `imported domain "${data.name}" has ${this.bySplit.train.length} train and ${this.bySplit.test.length} test tasks with logs; training needs at least ${MIN_TRAIN_TASKS} train and ${MIN_TEST_TASKS} held-out test tasks (import more trajectories, with "split": "test" on some)`,
      );
    for (const t of tasks) this.byId.set(t.id, t);
    const byState = new Map<string, Set<string>>();
    for (const episode of this.logs) {
      if (!this.firstState.has(episode.taskId)) this.firstState.set(episode.taskId, episode.steps[0]!.state);
      // Held-out logs give their tasks a start and the agreement proxy its references; their actions are not
      // offered to the policy (that would hand it the answers).
      if (this.byId.get(episode.taskId)?.split !== "train") continue;
      const own = this.taskActions.get(episode.taskId) ?? [];
      for (const step of episode.steps) {
        if (!own.includes(step.action)) own.push(step.action);
        const seen = byState.get(step.state.text) ?? new Set<string>();
        seen.add(step.action);
        for (const a of step.state.actions ?? []) seen.add(a);
        byState.set(step.state.text, seen);
      }
      this.taskActions.set(episode.taskId, own);
    }
    const taken = new Set<string>();
    const offeredBeside = new Set<string>();
    for (const episode of this.logs) {
      if (this.byId.get(episode.taskId)?.split !== "train") continue;
      for (const step of episode.steps) {
        taken.add(step.action);
        const listed = step.state.actions ?? [];
        // An action typed off the list ("stop[38]" where the page lists "stop[answer]") fills a template.
        if (listed.length === 0 || listed.includes(step.action)) continue;
        const verb = VERB.exec(step.action)?.[1];
        for (const a of listed) if (verb !== undefined && VERB.exec(a)?.[1] === verb) offeredBeside.add(a);
      }
    }
    for (const a of offeredBeside) if (!taken.has(a)) this.templates.add(a);
    for (const [text, actions] of byState)
      this.states.push({ id: this.states.length, text, actions: [...actions] });
    this.index = new MiniSearch({
      fields: ["text"],
      tokenize: searchTokens,
    });
    this.index.addAll(this.states.map(({ id, text }) => ({ id, text })));
    this.maxSteps = stepLimit(this.logs.map((e) => e.steps.length));
  }

  /** Task `index` of a split, cycling through the imported ones (there are only so many). */
  task(split: Split, index: number): Task {
    const tasks = this.bySplit[split];
    return tasks[index % tasks.length]!;
  }

  /** The first `count` tasks of a split, or all of them when it has fewer. */
  tasks(split: Split, count: number): Task[] {
    return this.bySplit[split].slice(0, count);
  }

  taskCount(split: Split): number {
    return this.bySplit[split].length;
  }

  /** Where an episode of the task starts: the first state its logs show (a variation starts where its root does). */
  async initialState(task: Task): Promise<Observation> {
    let id: string | undefined = task.id;
    const seen = new Set<string>();
    while (id !== undefined && !seen.has(id)) {
      seen.add(id);
      const state = this.firstState.get(id);
      if (state) return state;
      id = id === task.id ? task.parentId : this.byId.get(id)?.parentId;
    }
    // A variation whose lineage is not at hand: its id begins with its root's.
    const root = task.id.split("~")[0]!;
    const state = this.firstState.get(root);
    if (!state)
      throw new Error(`imported domain "${this.name}" has no logged start state for task ${task.id}`);
    return state;
  }

  /**
   * The logged admissible actions of the state, when it lists them, with each free-text slot ("search[...]")
   * filled: with the instruction, its content words, and the fills logged in similar states. A state that lists
   * none gets the actions logged in the most similar train states and in its task's own train logs.
   */
  readonly candidateActions = (task: Task, observation: Observation): string[] => {
    // A policy asks again for every state it revisits and every group member: the search is the costly part.
    const key = [
      task.id.split("~")[0],
      task.instruction,
      observation.text,
      ...(observation.actions ?? []),
    ].join("\u0000");
    const known = this.candidateMemo.get(key);
    if (known) return [...known];
    const out = this.findCandidates(task, observation);
    this.candidateMemo.set(key, out);
    return [...out];
  };

  private readonly candidateMemo = new LRUCache<string, string[]>({ max: 20_000 });

  private findCandidates(task: Task, observation: Observation): string[] {
    const out: string[] = [];
    const push = (a: string) => {
      if (out.length < MAX_CANDIDATES && !out.includes(a)) out.push(a);
    };
    const similar = () =>
      this.index
        .search(observation.text)
        .slice(0, SIMILAR_STATES)
        .flatMap((hit) => this.states[hit.id as number]!.actions);
    const root = task.id.split("~")[0]!;
    if (observation.actions && observation.actions.length > 0) {
      for (const a of observation.actions) {
        const verb = this.slotVerb(a);
        if (verb === undefined) {
          push(a);
          continue;
        }
        // What an LLM policy would type first: the instruction, then its gist; then what the logs typed here.
        push(`${verb}[${task.instruction}]`);
        push(`${verb}[${contentWords(task.instruction).join(" ")}]`);
        for (const logged of [...(this.taskActions.get(root) ?? []), ...similar()])
          if (logged.startsWith(`${verb}[`) && this.slotVerb(logged) === undefined) push(logged);
      }
      return out;
    }
    for (const a of similar()) push(a);
    for (const a of this.taskActions.get(root) ?? []) push(a);
    return out;
  }

  /** The verb of a free-text slot ("search" of "search[...]"), or undefined for an action as it stands. */
  private slotVerb(action: string): string | undefined {
    const slot = SLOT.exec(action);
    if (slot) return slot[1];
    return this.templates.has(action) ? VERB.exec(action)?.[1] : undefined;
  }

  /** The successful logs of a split's tasks: behaviour cloning's demonstrations (train) and the action-agreement proxy's references (test). */
  successfulLogs(split: Split): { task: Task; steps: S[] }[] {
    return this.logs
      .filter((e) => e.success && this.byId.get(e.taskId)?.split === split)
      .map((e) => ({ task: this.byId.get(e.taskId)!, steps: e.steps }));
  }

  /** Every log of a split's tasks, successes and failures, in the logs' order: what the held-out checks replay. */
  logsOf(split: Split): (LoggedEpisode<S> & { task: Task })[] {
    return this.logs
      .filter((e) => this.byId.get(e.taskId)?.split === split)
      .map((e) => ({ ...e, task: this.byId.get(e.taskId)! }));
  }

  /** Every logged step of the train tasks, in the logs' order: the replay buffer of a run in this domain. */
  trainSteps(): S[] {
    return this.logs.filter((e) => this.byId.get(e.taskId)?.split === "train").flatMap((e) => e.steps);
  }
}
