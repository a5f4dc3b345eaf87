import type { Demonstration } from "../replay/buffer";
import type { Observation, Step, Task, TrajectorySource, Transition, Usage } from "../types";

/** Everything the experience model conditions on (ARCHITECTURE.md "Contracts"). */
export interface ExperienceInput {
  task: Task;
  /** The episode so far; the prompt keeps only a bounded window of it. */
  history: Step[];
  /**
   * Every step of the episode so far, where the caller keeps them (the synthetic environment: what the model itself
   * asserted): a model may remember its own world beyond the window a prompt shows. Absent: the history is all.
   */
  episode?: readonly Step[];
  state: Observation;
  action: string;
  /** The top-k transitions retrieved from the replay buffer (empty when retrieval is ablated). */
  demonstrations: Demonstration[];
}

export interface ExperiencePrediction {
  /** The chain-of-thought that explains the transition (empty when reasoning is ablated). */
  reasoning: string;
  next: Observation;
  reward: number;
  done: boolean;
  success: boolean;
  /** False when the action is impossible in the state: then next = state and reward = 0. */
  valid: boolean;
  /** Which model wrote it, e.g. "retrieval-exp-v1" or "openai:gpt-4o-mini". */
  model: string;
  latencyMs: number;
  usage?: Usage;
  /** The model's reply text, kept when it could not be parsed (and for audit). */
  raw?: string;
  /**
   * Set when the model's reply could not be used even after a repair attempt: the prediction is then a no-op
   * (state unchanged, reward 0) and must never be stored as a valid step.
   */
  error?: string;
  /** How far the model may be trusted on this step, with its parts (confidence.ts). */
  confidence?: Confidence;
}

/**
 * An experience model's confidence in one prediction, 0–1, with the parts it is made of, each 0–1 as well (named
 * so that a researcher can see why: "familiarity 0.31" says the buffer has nothing like this state and action).
 */
export interface Confidence {
  value: number;
  parts: Record<string, number>;
}

export interface PredictOptions {
  signal?: AbortSignal;
}

export interface ExperienceModel {
  readonly name: string;
  predict(input: ExperienceInput, options?: PredictOptions): Promise<ExperiencePrediction>;
  /**
   * Learns from transitions of the real environment gathered during a run (DreamGym-S2R with
   * `experience.learnFromReal`), as it learnt from the offline ones before the run. Absent: the model learns only
   * through what retrieval returns (an LLM behind an endpoint is not fine-tuned mid-run).
   */
  learn?(transitions: readonly Transition[]): void;
}

/** The paper's ablation switches, plus the prompt's size limits. */
export interface ExperienceSettings {
  /** Number of demonstrations retrieved per step; 0 ablates retrieval ("w/o replay"). */
  k: number;
  /** Steps of history shown to the model; 0 ablates history. */
  historyWindow: number;
  /** False ablates the reasoning trace ("w/o reasoning"): the model predicts the outcome directly. */
  reasoning: boolean;
  /** Retrieve only from these sources (offline only keeps the model grounded in real experience). */
  sources?: TrajectorySource[];
  /** What the synthetic environment does at a step its model is unsure of (off unless set). */
  pessimism?: Pessimism;
  /** A diagnostic: the real environment stands in for part of the model (off unless set). */
  oracle?: Oracle;
}

/**
 * A diagnostic, not a method: the real environment stands in for part of the experience model, to measure what
 * the model's errors there cost the policy. With everything replaced, the synthetic environment is the real one
 * behind DreamGym's loop (curriculum, variations, budget): the upper bound a perfect experience model would reach.
 * - states: the real next state replaces the model's at every step ("all"), or after the actions that match
 *   `actions`, a regular expression ("matching": e.g. "^click\\[b0" for the shop's item pages), or never;
 * - reward: the episode ends where the real one ends (or at the step limit), with the real reward and success of
 *   the same actions. With the states too, the synthetic environment is the real one.
 * The real environment's steps are not counted as real transitions: such a run measures the model, it does not
 * compete with the methods.
 */
export interface Oracle {
  states: "none" | "all" | "matching";
  actions?: string | undefined;
  reward: boolean;
}

/**
 * Acting on the experience model's uncertainty, as model-based offline RL does, so that a policy cannot earn
 * reward where the model is only guessing:
 * - halt (MOReL): a step below `threshold` confidence ends the episode there with reward −`penalty`;
 * - penalty (MOPO): every step's reward loses `penalty` × (1 − confidence).
 */
export interface Pessimism {
  mode: "off" | "halt" | "penalty";
  threshold: number;
  penalty: number;
}

export const DEFAULT_EXPERIENCE_SETTINGS: ExperienceSettings = { k: 8, historyWindow: 4, reasoning: true };

/** A real transition's outcome, which a teacher explains (it knows the answer; the experience model must not). */
export interface TransitionOutcome {
  next: Observation;
  reward: number;
  done: boolean;
  success: boolean;
  valid: boolean;
}

export interface TeacherTrace {
  reasoning: string;
  model: string;
  latencyMs: number;
  usage?: Usage;
}

/**
 * Writes the reasoning trace for an offline transition: the SFT target that teaches the experience model to think
 * before it predicts (the paper's joint objective). Traces go to annotators for review before export.
 */
export interface Teacher {
  readonly name: string;
  explain(
    input: ExperienceInput,
    outcome: TransitionOutcome,
    options?: PredictOptions,
  ): Promise<TeacherTrace>;
}

/** The paper's four rubrics for synthetic transitions, 0–2 each (higher is better; hallucination 2 = none). */
export interface JudgeScores {
  causal: number;
  diversity: number;
  informativeness: number;
  hallucination: number;
  rationale: string;
  model: string;
  usage?: Usage;
}

export interface Judge {
  readonly name: string;
  score(
    input: ExperienceInput,
    prediction: ExperiencePrediction,
    options?: PredictOptions,
  ): Promise<JudgeScores>;
}
