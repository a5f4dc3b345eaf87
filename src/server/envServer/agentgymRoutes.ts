/**
 * AgentGym's environment servers (AgentGym-RL's clients), so their clients work unmodified against the base URL
 * /agentgym/webshop or /agentgym/alfworld, optionally followed by /<mode> and /<mode>/<run id>. The flavours'
 * shapes are in agentgymWebshop.ts and agentgymAlfworld.ts; session_id and game are train task numbers of the shop
 * and the household. Episodes are recorded as OpenEnv's are.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { alfworld } from "./agentgymAlfworld";
import type { AgentGymIds } from "./agentgymShared";
import { webshop } from "./agentgymWebshop";
import { sendJson } from "./http";
import { ENV_MODES, type EnvMode } from "./protocol";
import type { EnvService, ResetDefaults } from "./service";

export { AgentGymIds } from "./agentgymShared";

const ROUTE = new RegExp(
  `^/agentgym/(webshop|alfworld)(?:/(${ENV_MODES.join("|")})(?:/([^/]+))?)?(/[a-z_]*)$`,
);

type Flavour = "webshop" | "alfworld";

export async function handleAgentGym(
  service: EnvService,
  ids: Record<Flavour, AgentGymIds>,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  client: string,
): Promise<boolean> {
  const m = ROUTE.exec(url.pathname);
  if (!m) return false;
  const flavour = m[1] as Flavour;
  const defaults: ResetDefaults = {
    domain: flavour === "webshop" ? "shop" : "household",
    mode: (m[2] as EnvMode | undefined) ?? "real",
    ...(m[3] ? { runId: decodeURIComponent(m[3]) } : {}),
  };
  const route = m[4] as string;
  const table = ids[flavour];

  if (req.method === "GET" && (route === "/" || route === "")) {
    sendJson(res, 200, flavour === "webshop" ? "ok" : "This is environment AlfWorld (DreamGym).");
    return true;
  }
  if (req.method === "GET" && route === "/list_envs") {
    sendJson(res, 200, table.list());
    return true;
  }
  if (req.method === "POST" && route === "/create") {
    const session = service.open("agentgym", client, { flavour });
    const id = table.add(session);
    sendJson(res, 200, flavour === "webshop" ? id : { id });
    return true;
  }
  const request = { service, table, req, res, url, route, defaults };
  return flavour === "webshop" ? webshop(request) : alfworld(request);
}
