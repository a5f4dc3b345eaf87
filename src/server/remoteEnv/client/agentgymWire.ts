/**
 * What AgentGym's environment servers share: FastAPI routes under a base URL, a session made by POST /create and
 * named by a number in every body (`id`, WebShop's `env_idx`) and query, a root route that says hello, and a
 * close that older servers lack (ALFWorld, WebShop): closing is best effort.
 */
import { z } from "zod";
import type { RemoteEnvSpec } from "@/core/envs/remote/spec";
import { type JsonRequest, requestJson } from "./http";
import { closeTimeoutMs } from "./session";

/** WebShop answers /create with the number itself, the others with `{id, ...}`. */
export const CreateReply = z.union([
  z.number().int(),
  z.looseObject({ id: z.union([z.number().int(), z.string().min(1)]) }),
]);

export function createdId(reply: z.infer<typeof CreateReply>): number | string {
  return typeof reply === "number" ? reply : reply.id;
}

export function post<T>(
  spec: RemoteEnvSpec,
  path: string,
  body: Record<string, unknown>,
  schema: z.ZodType<T>,
  timeoutMs: number,
  sessionOpen = true,
): Promise<T> {
  return requestJson(spec, { method: "POST", path, body, schema, timeoutMs, sessionOpen });
}

export function get<T>(
  spec: RemoteEnvSpec,
  path: string,
  query: NonNullable<JsonRequest<T>["query"]>,
  schema: z.ZodType<T>,
  timeoutMs: number,
  sessionOpen = true,
): Promise<T> {
  return requestJson(spec, { method: "GET", path, query, schema, timeoutMs, sessionOpen });
}

/** POST /create: a new session's number. */
export async function create(spec: RemoteEnvSpec): Promise<number | string> {
  return createdId(await post(spec, "/create", {}, CreateReply, spec.resetTimeoutMs, false));
}

/** POST /close, for servers that have it; a server that lacks it or is gone has nothing to close. */
export async function closeQuietly(spec: RemoteEnvSpec, body: Record<string, unknown>): Promise<void> {
  await post(spec, "/close", body, z.unknown(), closeTimeoutMs(spec)).catch(() => undefined);
}

/** The root route's greeting ("ok", "This is environment AlfWorld."). */
export async function agentgymHealth(spec: RemoteEnvSpec): Promise<string> {
  const reply = await requestJson(spec, {
    method: "GET",
    path: "/",
    schema: z.unknown(),
    timeoutMs: spec.resetTimeoutMs,
    sessionOpen: false,
  });
  return typeof reply === "string" ? reply : JSON.stringify(reply);
}

/** A list of actions as the generic servers give it: the list, or an object holding it. */
export const ActionList = z.union([
  z.array(z.string()),
  z
    .looseObject({
      available_actions: z.array(z.string()).optional(),
      possible_actions: z.array(z.string()).optional(),
      actions: z.array(z.string()).optional(),
    })
    .refine((o) => o.available_actions ?? o.possible_actions ?? o.actions, "no list of actions"),
]);

export function actionList(reply: z.infer<typeof ActionList>): string[] {
  return Array.isArray(reply)
    ? reply
    : (reply.available_actions ?? reply.possible_actions ?? reply.actions ?? []);
}

/** A step's reply, as AgentGym's generic and ALFWorld servers give it. */
const StepReply = z.looseObject({
  observation: z.string(),
  reward: z.number().nullish(),
  done: z.boolean(),
  available_actions: z.array(z.string()).optional(),
});

/**
 * POST /step `{id, action}` of a session; `more` asks for the actions when the reply lists none and the episode
 * goes on (servers that keep them on a route of their own).
 */
export async function stepSession(
  spec: RemoteEnvSpec,
  id: number | string,
  action: string,
  more?: () => Promise<string[] | undefined>,
) {
  const reply = await post(spec, "/step", { id, action }, StepReply, spec.stepTimeoutMs);
  const actions = reply.available_actions ?? (reply.done || !more ? undefined : await more());
  return {
    observation: { text: reply.observation, ...(actions ? { actions } : {}) },
    reward: reply.reward ?? 0,
    done: reply.done,
  };
}
