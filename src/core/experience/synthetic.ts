import type { Demonstration, ReplayBuffer } from "../replay/buffer";
import type { Environment, Observation, Step, StepResult, Task } from "../types";
import { demonstrationConfidence } from "./confidence";
import { type OracleParts, OracleShadow, oracleOn } from "./oracle";
import type {
  Confidence,
  ExperienceModel,
  ExperiencePrediction,
  ExperienceSettings,
  Pessimism,
} from "./types";

/** What a synthetic step carries besides the StepResult: everything the UI and the store need to audit it. */
export interface SyntheticStepInfo extends Record<string, unknown> {
  reasoning: string;
  demonstrationIds: string[];
  model: string;
  latencyMs: number;
  promptTokens?: number;
  completionTokens?: number;
  raw?: string;
  modelError?: string;
  /** The model's confidence in this step, 0–1, and its parts (absent for a reply that could not be used). */
  confidence?: number;
  confidenceParts?: Record<string, number>;
  /** What pessimism did to this step: the episode halted here, or its reward was penalised. */
  pessimism?: "halted" | "penalised";
  /** The model's own reward, before pessimism changed it. */
  predictedReward?: number;
  /** What the oracle diagnostic (experience/oracle.ts) put into this step instead of the model's answer. */
  oracle?: OracleParts;
}

/**
 * DreamGym's synthetic environment: the experience model plus the replay buffer's top-k, behind the same
 * Environment contract as a real one, so rollouts, GRPO, PPO and evaluation cannot tell them apart. The
 * ablation switches live in the settings: k = 0 (no replay), historyWindow = 0 (no history), reasoning off.
 */
export class SyntheticEnvironment implements Environment {
  private task: Task | undefined;
  private state: Observation | undefined;
  private history: Step[] = [];
  private finished = false;
  private readonly shadow: OracleShadow | undefined;

  constructor(
    readonly domain: string,
    private readonly model: ExperienceModel,
    private readonly buffer: ReplayBuffer | undefined,
    private readonly settings: ExperienceSettings,
    /** The first state of a task: synthetic episodes start where real ones do (from the task's real reset). */
    private readonly initialState: (task: Task) => Promise<Observation>,
    private readonly maxSteps: number,
    /** The real environment, for the oracle diagnostic only (settings.oracle). */
    realEnvironment?: () => Environment,
  ) {
    if (oracleOn(settings.oracle)) {
      if (!realEnvironment)
        throw new Error(`experience.oracle needs the real environment of "${domain}", and it has none`);
      this.shadow = new OracleShadow(settings.oracle, realEnvironment);
    }
  }

  async reset(task: Task): Promise<Observation> {
    this.task = task;
    this.history = [];
    this.finished = false;
    this.state = await this.initialState(task);
    await this.shadow?.reset(task);
    return this.state;
  }

  async step(action: string): Promise<StepResult> {
    const task = this.task;
    const state = this.state;
    if (!task || !state) throw new Error("SyntheticEnvironment.step called before reset");
    if (this.finished) throw new Error("SyntheticEnvironment.step called after the episode ended");
    const demonstrations = await this.retrieve(task, state, action);
    const history = this.settings.historyWindow > 0 ? this.history.slice(-this.settings.historyWindow) : [];
    // The whole episode too: a model may remember what it asserted beyond the window a prompt shows.
    const prediction = await this.model.predict({
      task,
      history,
      episode: this.history,
      state,
      action,
      demonstrations,
    });
    const outOfSteps = this.history.length + 1 >= this.maxSteps;
    const confidence =
      prediction.error === undefined
        ? (prediction.confidence ?? demonstrationConfidence(action, demonstrations))
        : undefined;
    let predicted = toStepResult(prediction, demonstrations, outOfSteps, confidence);
    if (this.shadow) {
      const { result, parts } = this.shadow.apply(
        action,
        predicted,
        await this.shadow.step(action),
        outOfSteps,
      );
      predicted = parts.length > 0 ? { ...result, info: { ...result.info, oracle: parts } } : result;
    }
    const result = pessimistic(predicted, confidence, this.settings.pessimism);
    this.history.push({
      state,
      action,
      reasoning: prediction.reasoning,
      next: result.observation,
      reward: result.reward,
      done: result.done,
      success: result.success,
      valid: result.valid,
    });
    this.state = result.observation;
    this.finished = result.done;
    return result;
  }

  private async retrieve(task: Task, state: Observation, action: string): Promise<Demonstration[]> {
    if (!this.buffer || this.settings.k <= 0) return [];
    return this.buffer.similar(
      { domain: this.domain, state: state.text, action, instruction: task.instruction },
      this.settings.k,
      this.settings.sources ? { sources: this.settings.sources } : {},
    );
  }
}

function toStepResult(
  p: ExperiencePrediction,
  demonstrations: Demonstration[],
  outOfSteps: boolean,
  confidence: Confidence | undefined,
): StepResult {
  const info: SyntheticStepInfo = {
    reasoning: p.reasoning,
    demonstrationIds: demonstrations.map((d) => d.id),
    model: p.model,
    latencyMs: p.latencyMs,
    ...(p.usage ? { promptTokens: p.usage.promptTokens, completionTokens: p.usage.completionTokens } : {}),
    ...(p.raw !== undefined ? { raw: p.raw } : {}),
    ...(p.error !== undefined ? { modelError: p.error } : {}),
    ...(confidence ? { confidence: confidence.value, confidenceParts: confidence.parts } : {}),
  };
  // A reply that could not be used is a no-op for the agent, and is marked so that it is never stored as valid.
  const valid = p.error === undefined && p.valid;
  return {
    observation: p.next,
    reward: valid ? p.reward : 0,
    done: (valid && p.done) || outOfSteps,
    success: valid && p.done && p.success,
    valid,
    info,
  };
}

/**
 * The step as pessimism leaves it (MOReL's halt or MOPO's penalty, experience/types.ts Pessimism). An unusable
 * reply (no confidence) is already a no-op without reward; an impossible action is answered for certain.
 */
function pessimistic(
  result: StepResult,
  confidence: Confidence | undefined,
  pessimism?: Pessimism,
): StepResult {
  if (!pessimism || pessimism.mode === "off" || !confidence || !result.valid) return result;
  const info = result.info as SyntheticStepInfo;
  if (pessimism.mode === "halt") {
    if (confidence.value >= pessimism.threshold) return result;
    return {
      ...result,
      reward: -pessimism.penalty,
      done: true,
      success: false,
      info: { ...info, pessimism: "halted", predictedReward: result.reward },
    };
  }
  const penalty = pessimism.penalty * (1 - confidence.value);
  if (penalty === 0) return result;
  return {
    ...result,
    reward: result.reward - penalty,
    info: { ...info, pessimism: "penalised", predictedReward: result.reward },
  };
}
