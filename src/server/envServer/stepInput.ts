/**
 * What a step message holds, read as AgentGym's servers read it: an action that is empty or not an action at all
 * (an LLM reply with no action line) is played as an invalid action, never refused, so one bad reply does not stop
 * a batch of rollouts. The action's companions (logprob, tokens) are still checked: a wrong type is the trainer's
 * bug, answered with a 422 that names the field.
 */
import { validationError } from "./errors";
import { ActionFields, MAX_ACTION_CHARS } from "./protocol";

export interface StepInput {
  /** The action as it is played and recorded (trimmed; "" when there was none). */
  action: string;
  /** False: not an action the environment can be asked about; the step is an invalid action. */
  playable: boolean;
  logprob?: number;
  tokens?: number;
}

/** A step's data: a bare string (AgentGym-style clients send one) or OpenEnv's action object. */
export function readStepInput(input: unknown): StepInput {
  if (typeof input === "string") return actionText(input);
  if (input === null || typeof input !== "object" || Array.isArray(input))
    return { action: "", playable: false };
  const fields = ActionFields.safeParse(input);
  if (!fields.success) throw validationError(fields.error, "bad action");
  const { logprob, tokens } = fields.data;
  return {
    ...actionText((input as { action?: unknown }).action),
    ...(logprob !== undefined ? { logprob } : {}),
    ...(tokens !== undefined ? { tokens } : {}),
  };
}

function actionText(raw: unknown): { action: string; playable: boolean } {
  if (typeof raw !== "string") return { action: "", playable: false };
  const action = raw.trim();
  if (action.length > MAX_ACTION_CHARS) return { action: action.slice(0, MAX_ACTION_CHARS), playable: false };
  return { action, playable: action !== "" };
}
