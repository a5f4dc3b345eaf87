import type { Environment, StepResult, Task } from "../types";
import type { Oracle } from "./types";

/** The oracle's settings as a run states them; off when it replaces nothing. */
export function oracleOn(oracle: Oracle | undefined): oracle is Oracle {
  return oracle !== undefined && (oracle.states !== "none" || oracle.reward);
}

/** Why an oracle's settings cannot be used, or null. */
export function oracleProblem(oracle: Oracle): string | null {
  if (oracle.states !== "matching") return null;
  if (!oracle.actions)
    return `states "matching" needs actions: a regular expression over the action, e.g. "^open " for the actions that start with "open "`;
  try {
    new RegExp(oracle.actions, "i");
    return null;
  } catch (error) {
    return `actions is not a regular expression (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** What the oracle put into a synthetic step, for the step's info. */
export type OracleParts = ("state" | "reward")[];

/**
 * The real environment beside a synthetic episode, stepped with the same actions, for the oracle diagnostic
 * (experience/types.ts Oracle). Real environments are deterministic given a task and its actions, so its answer is
 * what a perfect experience model would have written for the same history.
 */
export class OracleShadow {
  private env: Environment | undefined;
  private ended = false;
  private readonly matching: RegExp | undefined;

  constructor(
    private readonly oracle: Oracle,
    private readonly realEnvironment: () => Environment,
  ) {
    const problem = oracleProblem(oracle);
    if (problem) throw new Error(`experience.oracle: ${problem}`);
    this.matching =
      oracle.states === "matching" && oracle.actions ? new RegExp(oracle.actions, "i") : undefined;
  }

  async reset(task: Task): Promise<void> {
    this.env = this.realEnvironment();
    this.ended = false;
    await this.env.reset(task);
  }

  /** The real answer to the action; undefined once the real episode has ended (it bought, or gave up). */
  async step(action: string): Promise<StepResult | undefined> {
    if (!this.env || this.ended) return undefined;
    const real = await this.env.step(action);
    if (real.done) this.ended = true;
    return real;
  }

  /**
   * The synthetic step with the oracle's parts put in. With the reward, the episode ends where the real one ends (or
   * at the step limit), with the real reward and success; with the states, the real next state replaces the model's
   * where both episodes go on.
   */
  apply(
    action: string,
    synthetic: StepResult,
    real: StepResult | undefined,
    outOfSteps: boolean,
  ): { result: StepResult; parts: OracleParts } {
    const parts: OracleParts = [];
    let result = synthetic;
    if (this.oracle.reward) {
      const ended = real?.done === true;
      result = {
        ...result,
        reward: ended ? real.reward : 0,
        done: ended || outOfSteps,
        success: ended && real.success,
      };
      parts.push("reward");
    }
    const statesHere = this.oracle.states === "all" || this.matching?.test(action) === true;
    if (statesHere && real && !real.done && !result.done) {
      result = { ...result, observation: real.observation, valid: real.valid };
      parts.push("state");
    }
    return { result, parts };
  }
}
