/**
 * The contracts of DreamGym (ARCHITECTURE.md "Contracts"). Everything in src/core speaks these types; src/server
 * persists them and the UI shows them. Pure TypeScript: no framework, no database.
 */

/**
 * Where a trajectory came from: logs of the real environment, the experience model, or a real rollout of a run.
 * Listed here, not in src/shared, because core speaks it and core imports nothing outside core.
 */
export const TRAJECTORY_SOURCES = ["offline", "synthetic", "real"] as const;
export type TrajectorySource = (typeof TRAJECTORY_SOURCES)[number];

/** The sources whose transitions the real environment produced: ground truth to import, and to learn from. */
export const REAL_ENV_SOURCES = ["offline", "real"] as const satisfies readonly TrajectorySource[];

/** Train tasks are trained on (and varied); test tasks are held out for evaluation. */
export const SPLITS = ["train", "test"] as const;
export type Split = (typeof SPLITS)[number];

/** How a task came to exist: a seed task of a domain, a curriculum variation, or a task from an imported log. */
export type TaskOrigin = "seed" | "generated" | "imported";

export interface Task {
  /** Stable across versions, e.g. "shop:test:17"; generated tasks derive theirs from their parent. */
  id: string;
  domain: string;
  instruction: string;
  split: Split;
  origin: TaskOrigin;
  /** The hidden goal a real environment scores against (domain-specific JSON); absent for imported tasks. */
  goal?: unknown;
  parentId?: string;
  /** 0 for seed tasks, parent's generation + 1 for variations. */
  generation?: number;
}

/** A state as compact text (cleaned page elements, not HTML), with the admissible actions when the domain lists them. */
export interface Observation {
  text: string;
  actions?: string[];
}

export interface StepResult {
  observation: Observation;
  reward: number;
  done: boolean;
  success: boolean;
  /** False when the action was not possible in the state: the state is then unchanged and the reward 0. */
  valid: boolean;
  info?: Record<string, unknown>;
}

export interface Environment {
  readonly domain: string;
  reset(task: Task): Promise<Observation>;
  step(action: string): Promise<StepResult>;
  /**
   * Ends the episode, done or not. Environments that hold something outside the process (a remote environment's
   * session and its slot under the environment's concurrency limit) release it here; rollout() always calls it.
   */
  close?(): Promise<void>;
}

/** One step of an episode as the agent lived it. */
export interface Step {
  state: Observation;
  action: string;
  reasoning?: string;
  next: Observation;
  reward: number;
  done: boolean;
  success: boolean;
  valid: boolean;
}

/** A step with enough context to be retrieved as a demonstration from the replay buffer. */
export interface Transition extends Step {
  id: string;
  domain: string;
  instruction: string;
  source: TrajectorySource;
  taskId?: string;
}

export interface PolicyDecision {
  action: string;
  logprob?: number;
  /** An LLM agent's reasoning before it acted (ReAct). */
  thought?: string;
}

export interface Policy {
  act(task: Task, history: Step[], observation: Observation): Promise<PolicyDecision>;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens the endpoint served from its prefix cache, when it says (OpenAI, vLLM, SGLang do). */
  cachedPromptTokens?: number;
}
