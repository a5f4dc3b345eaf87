/**
 * OpenEnv over HTTP (meta-pytorch/OpenEnv's env_server): /health, /schema, /metadata, /openapi.json, /mcp, /state,
 * /reset, /step, and our /close, for clients without WebSockets; the episode lives on the server between calls and
 * is addressed by `episode_id`, or by default the caller's most recent HTTP episode (OpenEnv's HTTP clients send
 * no id).
 * Every route also answers under a prefix that fixes what resets play: /<domain>, /<domain>/<mode>, and
 * /runs/<run id>/… before either, so a client that only takes a base URL can pick them.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { REAL_DOMAIN_NAMES } from "@/core/envs/names";
import { EnvServerError, validationError } from "./errors";
import { createExternalRun, finishExternalRun, loadExternalRun, recordTrainerMetrics } from "./externalRuns";
import { readJson, sendJson } from "./http";
import { mcpAnswer, openapiDocument } from "./openapi";
import { CreateExternalRun, ENV_MODES, HttpClose, HttpStep, jsonSchemas, TrainerMetrics } from "./protocol";
import type { EnvService, ResetDefaults } from "./service";

/** A domain segment: any domain's name (built-in or imported), but never a mode or the runs prefix. */
const DOMAIN_SEGMENT = `(?!(?:${ENV_MODES.join("|")}|runs)/)([a-z0-9_-]+)`;
const PREFIX = new RegExp(
  `^(?:/runs/([^/]+))?(?:/${DOMAIN_SEGMENT})?(?:/(${ENV_MODES.join("|")}))?(/[a-z_]+|/openapi\\.json)$`,
);

/** What a path asks for: the route, and the defaults its prefix fixes. Undefined when it is not OpenEnv's. */
export function openenvRoute(pathname: string): { route: string; defaults: ResetDefaults } | undefined {
  const m = PREFIX.exec(pathname);
  if (!m) return undefined;
  const defaults: ResetDefaults = {};
  if (m[1]) defaults.runId = decodeURIComponent(m[1]);
  if (m[2]) defaults.domain = m[2];
  if (m[3]) defaults.mode = m[3] as "real" | "synthetic";
  return { route: m[4] as string, defaults };
}

/** OpenEnv's EnvironmentMetadata fields only: its clients refuse unknown ones. */
export const METADATA = {
  name: "DreamGym",
  description: `Domains ${REAL_DOMAIN_NAMES.join(", ")} (WebShop-like, ALFWorld-like) and domains imported as logs (synthetic only), modes ${ENV_MODES.join(", ")} (synthetic: an experience model grounded in a replay buffer); every episode is recorded under an external run.`,
  version: "1",
  author: "DreamGym",
};

/** One HTTP request on an OpenEnv route: who sent it, and what its path's prefix fixes. */
export interface OpenenvRequest {
  service: EnvService;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  route: string;
  defaults: ResetDefaults;
  /** The caller (callers.ts): its most recent HTTP episode is the default of /step, /state and /close. */
  client: string;
}

export async function handleOpenenvHttp(r: OpenenvRequest): Promise<boolean> {
  const { req, res, route } = r;
  if (req.method === "GET") return discovery(res, route) || httpState(r);
  if (req.method !== "POST") return false;
  if (route === "/reset") return httpReset(r);
  if (route === "/step") return httpStep(r);
  if (route === "/close") return httpClose(r);
  if (route === "/mcp") {
    let body: unknown;
    try {
      body = await readJson(req);
    } catch {
      sendJson(res, 200, {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32700, message: "Parse error", data: null },
      });
      return true;
    }
    sendJson(res, 200, mcpAnswer(body));
    return true;
  }
  return false;
}

/** The routes that describe the server: health, schemas, metadata, the OpenAPI document. */
function discovery(res: ServerResponse, route: string): boolean {
  if (route === "/health")
    // Exactly OpenEnv's fields: its clients refuse unknown ones here (capacity is under /sessions).
    sendJson(res, 200, { status: "healthy" });
  else if (route === "/schema") {
    const { action, observation, state } = jsonSchemas();
    sendJson(res, 200, { action, observation, state });
  } else if (route === "/schemas") sendJson(res, 200, jsonSchemas());
  else if (route === "/metadata") sendJson(res, 200, METADATA);
  else if (route === "/openapi.json") sendJson(res, 200, openapiDocument());
  else return false;
  return true;
}

function httpState({ service, res, url, route, client }: OpenenvRequest): boolean {
  if (route !== "/state") return false;
  const found = service.httpSession(url.searchParams.get("episode_id") || undefined, client);
  // No episode yet: a blank state, as an OpenEnv server answers for an environment not reset.
  sendJson(
    res,
    200,
    found === undefined ? service.state(undefined) : "ended" in found ? found.ended : service.state(found),
  );
  return true;
}

async function httpReset({ service, req, res, defaults, client }: OpenenvRequest): Promise<boolean> {
  const body = await readJson(req);
  const session = service.open("http", client);
  try {
    sendJson(res, 200, await service.reset(session, body, defaults));
  } catch (error) {
    service.close(session);
    throw error;
  }
  return true;
}

async function httpStep({ service, req, res, client }: OpenenvRequest): Promise<boolean> {
  const parsed = HttpStep.safeParse(await readJson(req));
  if (!parsed.success) throw validationError(parsed.error, "bad step");
  const found = service.httpSession(parsed.data.episode_id ?? undefined, client);
  if (found === undefined)
    throw new EnvServerError(
      "NOT_RESET",
      "no episode_id given, and you have no HTTP episode here: reset first",
    );
  if ("ended" in found)
    throw new EnvServerError(
      "EPISODE_DONE",
      `episode ${found.ended.episode_id} has ended: reset to start another`,
    );
  sendJson(res, 200, await service.step(found, parsed.data.action));
  return true;
}

async function httpClose({ service, req, res, client }: OpenenvRequest): Promise<boolean> {
  const parsed = HttpClose.safeParse(await readJson(req));
  if (!parsed.success) throw validationError(parsed.error, "bad close");
  sendJson(res, 200, { ...service.closeHttp(parsed.data.episode_id ?? undefined, client), closed: true });
  return true;
}

/** The external-run API: create a run, read it, post the trainer's metrics, finish it, list live sessions. */
export async function handleRunsApi(
  service: EnvService,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
): Promise<boolean> {
  if (pathname === "/runs" && req.method === "POST") {
    const parsed = CreateExternalRun.safeParse(await readJson(req));
    if (!parsed.success) throw validationError(parsed.error, "bad run");
    try {
      const run = await createExternalRun(service.db, parsed.data);
      sendJson(res, 200, { run_id: run.id, config: run.config });
    } catch (error) {
      if (error instanceof EnvServerError) throw error;
      throw new EnvServerError("VALIDATION_ERROR", (error as Error).message);
    }
    return true;
  }
  if (pathname === "/sessions" && req.method === "GET") {
    sendJson(res, 200, {
      active_sessions: service.sessions.size,
      max_sessions: service.sessions.limits.maxSessions,
      sessions: service.sessions
        .all()
        .map((s) => ({ kind: s.kind, ...(s.episode ? s.episode.state() : {}) })),
    });
    return true;
  }
  const m = /^\/runs\/([^/]+)\/(metrics|finish)$/.exec(pathname);
  if (!m || req.method !== "POST") return false;
  const run = await loadExternalRun(service.db, decodeURIComponent(m[1] as string));
  if (m[2] === "metrics") {
    const parsed = TrainerMetrics.safeParse(await readJson(req));
    if (!parsed.success) throw validationError(parsed.error, "bad metrics");
    await recordTrainerMetrics(service.db, run.id, parsed.data.policy_version, parsed.data.metrics);
    sendJson(res, 200, { ok: true });
    return true;
  }
  await service.settle();
  await finishExternalRun(service.db, run.id);
  // The run's steps become searchable neighbours now rather than at the next pass.
  await service.index();
  sendJson(res, 200, { ok: true });
  return true;
}
