/**
 * The OpenAPI document of the OpenEnv HTTP routes (`GET /openapi.json`), and the JSON-RPC answer of `POST /mcp`:
 * what `openenv validate --url` reads. Its `info.version` 1.x names OpenEnv's HTTP profile 1.x; the presence of
 * /reset, /step and /state says the server runs in simulation mode. The bodies' schemas are the zod schemas the
 * routes check with (protocol.ts), so the document cannot drift from what is served.
 */
import { jsonSchemas } from "./protocol";

/** OpenEnv's runtime API version this server follows (its FastAPI apps say 1.0.0). */
export const OPENAPI_VERSION = "1.0.0";

type Schema = Record<string, unknown>;

const json = (schema: Schema) => ({ content: { "application/json": { schema } } });
const answer = (description: string, schema: Schema) => ({ "200": { description, ...json(schema) } });
const ERROR = {
  description: "an error: OpenEnv's {type: error, data: {message, code}}",
  ...json({ type: "object" }),
};
const query = (name: string, description: string) => ({
  name,
  in: "query",
  required: false,
  description,
  schema: { type: "string" },
});

export function openapiDocument(): Record<string, unknown> {
  const s = jsonSchemas();
  const step = {
    type: "object",
    properties: {
      episode_id: {
        type: "string",
        description: "the episode; the caller's most recent HTTP episode when absent",
      },
      action: s.action,
      timeout_s: { type: "number" },
      request_id: { type: "string" },
    },
  };
  const free = { type: "object" };
  return {
    openapi: "3.1.0",
    info: {
      title: "DreamGym environment server (OpenEnv HTTP API)",
      version: OPENAPI_VERSION,
      description:
        "DreamGym's real and synthetic environments over OpenEnv's HTTP routes. The same routes answer under /<domain>, /<domain>/<mode> and /runs/<run id>/…; WebSocket sessions are at /ws.",
    },
    paths: {
      "/reset": {
        post: {
          summary: "Start an episode",
          requestBody: { required: false, ...json(s.reset) },
          responses: { ...answer("the first observation", s.observation), default: ERROR },
        },
      },
      "/step": {
        post: {
          summary: "Take one action in an HTTP episode",
          requestBody: { required: true, ...json(step) },
          responses: { ...answer("the observation after the action", s.observation), default: ERROR },
        },
      },
      "/state": {
        get: {
          summary: "An HTTP episode's state",
          parameters: [query("episode_id", "the episode; the caller's most recent HTTP episode when absent")],
          responses: { ...answer("the episode's state", s.state), default: ERROR },
        },
      },
      "/close": {
        post: {
          summary: "End an HTTP episode and free its slot (a live one is recorded as abandoned)",
          requestBody: { required: false, ...json(s.close) },
          responses: { ...answer("{episode_id, closed, status}", free), default: ERROR },
        },
      },
      "/health": { get: { summary: "Health check", responses: answer("{status: healthy}", free) } },
      "/metadata": { get: { summary: "The environment's metadata", responses: answer("metadata", free) } },
      "/schema": {
        get: { summary: "JSON Schemas of action, observation and state", responses: answer("schemas", free) },
      },
      "/schemas": { get: { summary: "Every wire format's JSON Schema", responses: answer("schemas", free) } },
      "/mcp": {
        post: {
          summary: "MCP JSON-RPC 2.0 (this environment has no MCP tools)",
          requestBody: { required: true, ...json(free) },
          responses: answer("a JSON-RPC 2.0 response", free),
        },
      },
      "/sessions": { get: { summary: "The open sessions", responses: answer("sessions", free) } },
      "/runs": {
        post: {
          summary: "Create an external run",
          requestBody: { required: true, ...json(s.external_run) },
          responses: { ...answer("{run_id, config}", free), default: ERROR },
        },
      },
    },
  };
}

/**
 * `POST /mcp`: a JSON-RPC 2.0 answer, as OpenEnv's servers give one to any body (HTTP 200, the error inside):
 * a body that is no request is an invalid request; every method is one this environment does not offer, for it
 * plays actions through /step and /ws, not through MCP tools.
 */
export function mcpAnswer(body: unknown): Record<string, unknown> {
  const request = body !== null && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const id = typeof request.id === "string" || typeof request.id === "number" ? request.id : null;
  if (request.jsonrpc !== "2.0" || typeof request.method !== "string")
    return { jsonrpc: "2.0", id, error: { code: -32600, message: "Invalid Request", data: null } };
  const error =
    request.method === "tools/list" || request.method === "tools/call"
      ? { code: -32603, message: "Environment does not support MCP", data: null }
      : { code: -32601, message: `Method not found: ${request.method}`, data: null };
  return { jsonrpc: "2.0", id, error };
}
