/**
 * OpenEnv's bodies, shared by its WebSocket and HTTP transports: what a reset sends, how an action travels, and how a
 * serialised observation (`{observation: {...}, reward, done}`) reads as DreamGym's. OpenEnv environments name their
 * fields as they like (BrowserGym `text`/`goal`, TextArena `messages`, chess `legal_moves`), so the reading looks
 * for the usual names in order; DreamGym's own server uses `text`, `available_actions`, `instruction`, `valid`,
 * `success`.
 */
import { z } from "zod";
import type { RemoteEnvSpec, RemoteStepResult } from "@/core/envs/remote/spec";
import { excerpt, RequestFailure } from "./failure";
import { httpBase, requestJson } from "./http";
import type { ResetTarget } from "./session";

/**
 * The task number goes as `seed` (OpenEnv's own reset argument) and as `index`, with `split` and `evaluation` for
 * servers that tell train from test (DreamGym's); OpenEnv servers pass an environment only the arguments its reset
 * takes. The registration's fields may change split and evaluation but never the task number.
 */
export function resetData(spec: RemoteEnvSpec, target: ResetTarget): Record<string, unknown> {
  return {
    split: target.split,
    evaluation: target.split === "test",
    ...spec.resetFields,
    seed: target.number,
    index: target.number,
  };
}

/** An action as OpenEnv's generic clients send it: the action model's fields, here its one text field. */
export function actionData(spec: Pick<RemoteEnvSpec, "actionField">, action: string): Record<string, string> {
  return { [spec.actionField]: action };
}

/** OpenEnv's serialised observation; peers add fields (DreamGym's `metadata`). */
export const OpenenvResult = z.looseObject({
  observation: z.record(z.string(), z.unknown()),
  reward: z.union([z.number(), z.boolean()]).nullish(),
  done: z.boolean().optional(),
});
export type OpenenvResult = z.infer<typeof OpenenvResult>;

const TEXT_FIELDS = [
  "text",
  "observation",
  "prompt",
  "question",
  "content",
  "message",
  "output",
  "state",
  "info_state",
  "fen",
];
const ACTION_FIELDS = ["available_actions", "legal_actions", "legal_moves", "valid_actions", "actions"];
const INSTRUCTION_FIELDS = ["instruction", "goal", "task"];
/** What OpenEnv's serialisation leaves beside the fields; never part of the state's text. */
const NOT_STATE = new Set(["metadata", "reward", "done"]);

function firstString(o: Record<string, unknown>, fields: readonly string[]): string | undefined {
  for (const f of fields) if (typeof o[f] === "string") return o[f] as string;
  return undefined;
}

/** A chat-shaped observation (TextArena's `messages: [{content}]`) as one text. */
function messagesText(o: Record<string, unknown>): string | undefined {
  if (!Array.isArray(o.messages)) return undefined;
  const parts = o.messages.flatMap((m) =>
    typeof m === "string"
      ? [m]
      : typeof (m as { content?: unknown })?.content === "string"
        ? [(m as { content: string }).content]
        : [],
  );
  return parts.length > 0 ? parts.join("\n") : undefined;
}

function actionsOf(o: Record<string, unknown>): string[] | undefined {
  for (const f of ACTION_FIELDS) {
    const list = o[f];
    if (Array.isArray(list) && list.every((a) => typeof a === "string" || typeof a === "number"))
      return list.map(String);
  }
  return undefined;
}

/** The observation's text: its first text field, its messages, or else its fields as JSON. */
function textOf(o: Record<string, unknown>): string {
  const text = firstString(o, TEXT_FIELDS) ?? messagesText(o);
  if (text !== undefined) return text;
  return JSON.stringify(Object.fromEntries(Object.entries(o).filter(([k]) => !NOT_STATE.has(k))));
}

export function readResult(result: OpenenvResult): RemoteStepResult {
  const o = result.observation;
  const actions = actionsOf(o);
  const instruction = firstString(o, INSTRUCTION_FIELDS);
  const reward = typeof result.reward === "boolean" ? Number(result.reward) : (result.reward ?? 0);
  return {
    observation: {
      text: textOf(o),
      ...(actions ? { actions } : {}),
      ...(instruction !== undefined ? { instruction } : {}),
    },
    reward,
    done: result.done ?? (typeof o.done === "boolean" ? o.done : false),
    ...(typeof o.success === "boolean" ? { success: o.success } : {}),
    ...(typeof o.valid === "boolean" ? { valid: o.valid } : {}),
  };
}

const HealthReply = z.looseObject({ status: z.string() });

/** OpenEnv's /health: anything but "unhealthy" answers. */
export async function openenvHealth(spec: RemoteEnvSpec): Promise<string> {
  const reply = await requestJson(spec, {
    method: "GET",
    path: "/health",
    timeoutMs: spec.resetTimeoutMs,
    schema: HealthReply,
    sessionOpen: false,
  });
  if (reply.status === "unhealthy")
    throw new RequestFailure(
      "unavailable",
      `GET ${httpBase(spec.url)}/health`,
      `the server says it is unhealthy: ${excerpt(JSON.stringify(reply))}`,
    );
  return reply.status;
}
