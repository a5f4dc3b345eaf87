/**
 * One episode an external trainer plays: its environment, its place in the run, and its recording. Steps run one
 * at a time. A synthetic step is answered as soon as the experience model has spoken; the real environment's
 * answer to the same action (the shadow) and the step's record follow before the next step starts.
 */
import { randomUUID } from "node:crypto";
import { isImportedDomain, type TrainingDomain } from "@/core/envs/trainingDomain";
import type { SyntheticStepInfo } from "@/core/experience/synthetic";
import type { Environment, Observation, StepResult, Task } from "@/core/types";
import { auditFields, realFields } from "../trajectories/saveEpisodes";
import { EnvServerError } from "./errors";
import type { EnvMode, EpisodeState, ObservationData, StepReply } from "./protocol";
import type { EpisodeRecorder } from "./recorder";
import type { StepInput } from "./stepInput";

export interface EpisodeInit {
  episodeId: string;
  runId: string;
  task: Task;
  mode: EnvMode;
  version: number;
  group: number | null;
  /** An evaluation episode (it may play test tasks) is kept out of the run's training figures. */
  evaluation?: boolean;
  domain: TrainingDomain;
  env: Environment;
  shadow?: Environment;
  recorder: EpisodeRecorder;
}

export class Episode {
  readonly trajectoryId = randomUUID();
  private observation: Observation | undefined;
  private steps = 0;
  private totalReward = 0;
  private success = false;
  private agentTokens: number | null = null;
  private ended: "done" | "abandoned" | undefined;
  private endRecorded = false;
  /** The step being taken: an episode given up meanwhile records its end after that step's record. */
  private inFlight: Promise<StepReply> | undefined;
  /** The shadow's answer and the record of the last step: the next step waits for them. */
  private tail: Promise<void> = Promise.resolve();
  private shadowEnded = false;
  /** How long the environment itself took for the last step (the experience model's time, in synthetic mode). */
  lastEnvMs = 0;

  constructor(private readonly init: EpisodeInit) {}

  get id(): string {
    return this.init.episodeId;
  }
  get done(): boolean {
    return this.ended !== undefined;
  }
  get task(): Task {
    return this.init.task;
  }
  get lastObservation(): Observation | undefined {
    return this.observation;
  }

  async start(): Promise<StepReply> {
    const { env, shadow, task, recorder } = this.init;
    this.observation = await env.reset(task);
    if (shadow) {
      if (task.goal === undefined) this.shadowEnded = true;
      else await shadow.reset(task);
    }
    recorder.start({
      trajectoryId: this.trajectoryId,
      episodeId: this.id,
      runId: this.init.runId,
      task,
      source: this.init.mode,
      iteration: this.init.version,
      group: this.init.group,
      purpose: this.init.evaluation ? "eval" : "train",
      policy: `trainer@v${this.init.version}`,
    });
    return { observation: this.observe(this.observation), reward: null, done: false };
  }

  step(action: StepInput): Promise<StepReply> {
    if (this.ended)
      return Promise.reject(
        new EnvServerError(
          "EPISODE_DONE",
          `episode ${this.id} has ${this.ended === "done" ? "ended" : "been abandoned"}: reset to start another`,
        ),
      );
    if (this.inFlight)
      return Promise.reject(
        new EnvServerError("SESSION_BUSY", `episode ${this.id} is still taking its previous step`),
      );
    const taking = this.take(action).finally(() => {
      this.inFlight = undefined;
      // Given up while the step ran (its client left): the end goes after the step's record, with it counted.
      if (this.ended) this.recordEnd();
    });
    this.inFlight = taking;
    return taking;
  }

  private async take(action: StepInput): Promise<StepReply> {
    await this.tail;
    const state = this.observation as Observation;
    const envStarted = performance.now();
    const result = action.playable ? await this.init.env.step(action.action) : noAction(state);
    this.lastEnvMs = performance.now() - envStarted;
    const index = this.steps++;
    // A real environment stops at the domain's step limit as the synthetic one does (rollout.ts's maxSteps).
    const done = result.done || this.steps >= this.init.domain.maxSteps;
    const outcome: StepResult = { ...result, done };
    this.observation = result.observation;
    this.totalReward += result.reward;
    this.success = result.success;
    if (action.tokens !== undefined) this.agentTokens = (this.agentTokens ?? 0) + action.tokens;
    this.tail = this.record(index, state, action, outcome);
    if (done) this.ended ??= "done";
    return {
      observation: this.observe(result.observation, outcome, index + 1),
      reward: result.reward,
      done,
    };
  }

  private async record(
    index: number,
    state: Observation,
    action: StepInput,
    result: StepResult,
  ): Promise<void> {
    let real: StepResult | undefined;
    // No action changes nothing in the shadow either: it stays where the episode is.
    if (this.init.shadow && !this.shadowEnded && action.playable) {
      real = await this.init.shadow.step(action.action);
      this.shadowEnded = real.done;
    }
    const info = result.info as SyntheticStepInfo | undefined;
    this.init.recorder.step({
      trajectoryId: this.trajectoryId,
      index,
      state: state.text,
      stateActions: state.actions ?? null,
      action: action.action,
      reasoning: typeof info?.reasoning === "string" ? info.reasoning : null,
      nextState: result.observation.text,
      nextActions: result.observation.actions ?? null,
      reward: result.reward,
      done: result.done,
      success: result.success,
      valid: result.valid,
      ...(this.init.mode === "synthetic" ? auditFields(info) : {}),
      ...realFields(real),
      logprob: action.logprob ?? null,
      agentTokens: action.tokens ?? null,
    });
  }

  /** Ends the episode (once): done by the environment, or abandoned by its client. */
  finish(how: "done" | "abandoned"): void {
    this.ended ??= how;
    if (!this.inFlight) this.recordEnd();
  }

  private recordEnd(): void {
    if (this.endRecorded) return;
    this.endRecorded = true;
    const how = this.ended ?? "abandoned";
    const end = {
      status: how,
      totalReward: this.totalReward,
      success: how === "done" && this.success,
      length: this.steps,
      agentTokens: this.agentTokens,
    };
    // After the last step's record, so the outcome lands after every step.
    this.tail = this.tail.then(() =>
      this.init.recorder.end(this.trajectoryId, this.init.runId, this.init.version, end),
    );
  }

  /** Waits until the episode's last step (one in flight included) is handed to the recorder. */
  async settled(): Promise<void> {
    while (this.inFlight) await this.inFlight.catch(() => undefined);
    await this.tail;
  }

  state(): EpisodeState {
    return {
      episode_id: this.id,
      step_count: this.steps,
      run_id: this.init.runId,
      trajectory_id: this.trajectoryId,
      task_id: this.task.id,
      domain: this.init.domain.name,
      mode: this.init.mode,
      policy_version: this.init.version,
      done: this.done,
      total_reward: this.totalReward,
    };
  }

  /**
   * The state's listed actions. A state of an imported domain that lists none (its logs never did) gets the
   * actions logged in the most similar states, the action space a run's policy chooses from there; a built-in
   * domain's own candidates would read its hidden goal.
   */
  private availableActions(observation: Observation): string[] {
    if (observation.actions && observation.actions.length > 0) return observation.actions;
    const { domain } = this.init;
    return isImportedDomain(domain) ? domain.candidateActions(this.task, observation) : [];
  }

  observe(observation: Observation, result?: StepResult, step = 0): ObservationData {
    // A step with no action never reached the experience model: it has no synthetic part.
    const info = typeof result?.info?.reasoning === "string" ? (result.info as SyntheticStepInfo) : undefined;
    return {
      text: observation.text,
      available_actions: this.availableActions(observation),
      instruction: this.task.instruction,
      task_id: this.task.id,
      valid: result?.valid ?? true,
      success: result?.success ?? false,
      step,
      ...(this.init.mode === "synthetic" && info
        ? {
            synthetic: {
              reasoning: info.reasoning,
              confidence: info.confidence ?? null,
              neighbours: info.demonstrationIds,
            },
          }
        : {}),
    };
  }
}

/** The answer to a step with no action in it: nothing changes, as for any action the environment refuses. */
function noAction(state: Observation): StepResult {
  return {
    observation: state,
    reward: 0,
    done: false,
    success: false,
    valid: false,
    info: { error: "no action: the reply held no action line" },
  };
}
