/**
 * OpenEnv over HTTP (meta-pytorch/OpenEnv's env_server): /health, /schema, /metadata, /state, /reset, /step, for
 * clients without WebSockets; the episode lives on the server between calls and is addressed by `episode_id`.
 * Every route also answers under a prefix that fixes what resets play: /<domain>, /<domain>/<mode>, and
 * /runs/<run id>/… before either, so a client that only takes a base URL can pick them.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { REAL_DOMAIN_NAMES } from "@/core/envs/names";
import { EnvServerError, validationError } from "./errors";
import { createExternalRun, finishExternalRun, loadExternalRun, recordTrainerMetrics } from "./externalRuns";
import { readJson, sendJson } from "./http";
import { CreateExternalRun, ENV_MODES, HttpStep, jsonSchemas, TrainerMetrics } from "./protocol";
import type { EnvService, ResetDefaults } from "./service";

/** A domain segment: any domain's name (built-in or imported), but never a mode or the runs prefix. */
const DOMAIN_SEGMENT = `(?!(?:${ENV_MODES.join("|")}|runs)/)([a-z0-9_-]+)`;
const PREFIX = new RegExp(
  `^(?:/runs/([^/]+))?(?:/${DOMAIN_SEGMENT})?(?:/(${ENV_MODES.join("|")}))?(/[a-z_]+)$`,
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

export async function handleOpenenvHttp(
  service: EnvService,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  route: string,
  defaults: ResetDefaults,
): Promise<boolean> {
  const get = req.method === "GET";
  const post = req.method === "POST";
  if (get && route === "/health") {
    // Exactly OpenEnv's fields: its clients refuse unknown ones here (capacity is under /sessions).
    sendJson(res, 200, { status: "healthy" });
    return true;
  }
  if (get && route === "/schema") {
    const { action, observation, state } = jsonSchemas();
    sendJson(res, 200, { action, observation, state });
    return true;
  }
  if (get && route === "/schemas") {
    sendJson(res, 200, jsonSchemas());
    return true;
  }
  if (get && route === "/metadata") {
    sendJson(res, 200, METADATA);
    return true;
  }
  if (get && route === "/state") {
    const episodeId = url.searchParams.get("episode_id");
    if (!episodeId) throw new EnvServerError("VALIDATION_ERROR", "GET /state needs ?episode_id=");
    const found = service.httpSession(episodeId);
    sendJson(res, 200, "ended" in found ? found.ended : service.state(found));
    return true;
  }
  if (post && route === "/reset") {
    const body = await readJson(req);
    const session = service.open("http");
    try {
      sendJson(res, 200, await service.reset(session, body, defaults));
    } catch (error) {
      service.close(session);
      throw error;
    }
    return true;
  }
  if (post && route === "/step") {
    const parsed = HttpStep.safeParse(await readJson(req));
    if (!parsed.success) throw validationError(parsed.error, "bad step");
    const found = service.httpSession(parsed.data.episode_id);
    if ("ended" in found)
      throw new EnvServerError(
        "EPISODE_DONE",
        `episode ${parsed.data.episode_id} has ended: reset to start another`,
      );
    sendJson(res, 200, await service.step(found, parsed.data.action));
    return true;
  }
  return false;
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
