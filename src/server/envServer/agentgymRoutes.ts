/**
 * AgentGym's environment servers (AgentGym-RL's clients), so their clients work unmodified against the base URL
 * /agentgym/webshop or /agentgym/alfworld, optionally followed by /<mode> and /<mode>/<run id>:
 * - WebShop (agentenv-webshop): POST /create → an int; /reset {env_idx, session_id} → [observation, null];
 *   /step {env_idx, action} → {state, reward, done, info}; GET /observation, /available_actions
 *   ({has_search_bar, clickables}), /instruction_text, /state with ?env_idx=; POST /close {env_idx}.
 * - ALFWorld (agentenv-alfworld): POST /create → {id}; /reset {id, game, world_type} → {id, observation,
 *   available_actions, task_type}; /step {id, action} → {observation, reward, available_actions, done};
 *   GET /observation, /available_actions, /detail with ?id=; POST /close {id}.
 * session_id and game are train task numbers of the shop and the household. Episodes are recorded as OpenEnv's are.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { EnvServerError, validationError } from "./errors";
import { readJson, sendJson } from "./http";
import { ENV_MODES, type EnvMode } from "./protocol";
import type { EnvService, ResetDefaults } from "./service";
import type { Session } from "./sessions";

const ROUTE = new RegExp(
  `^/agentgym/(webshop|alfworld)(?:/(${ENV_MODES.join("|")})(?:/([^/]+))?)?(/[a-z_]*)$`,
);

const WebshopReset = z.object({ env_idx: z.number().int(), session_id: z.number().int().min(0).nullish() });
const WebshopStep = z.object({ env_idx: z.number().int(), action: z.string() });
const WebshopClose = z.object({ env_idx: z.number().int() });
const AlfworldReset = z.object({
  id: z.number().int(),
  game: z.number().int().min(0).nullish(),
  world_type: z.enum(["Text", "Embody", "Hybrid"]).default("Text"),
});
const AlfworldStep = z.object({ id: z.number().int(), action: z.string() });
const AlfworldClose = z.object({ id: z.number().int() });

type Flavour = "webshop" | "alfworld";

/** AgentGym's environment numbers, per flavour, to our sessions. */
export class AgentGymIds {
  private next = 0;
  private readonly byId = new Map<number, Session>();

  add(session: Session): number {
    const id = this.next++;
    this.byId.set(id, session);
    return id;
  }

  get(id: number): Session {
    const session = this.byId.get(id);
    if (!session || session.closed) {
      if (session) this.byId.delete(id);
      throw new EnvServerError(
        "UNKNOWN_EPISODE",
        `The id ${id} is not valid (never created, closed or idled out).`,
      );
    }
    return session;
  }

  list(): number[] {
    return [...this.byId].filter(([, s]) => !s.closed).map(([id]) => id);
  }

  remove(id: number): void {
    this.byId.delete(id);
  }
}

function parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error, what);
  return parsed.data;
}

function intParam(url: URL, name: string): number {
  const value = url.searchParams.get(name);
  if (value === null || !/^\d+$/.test(value))
    throw new EnvServerError("VALIDATION_ERROR", `?${name}= is required`);
  return Number(value);
}

/** WebShop's view of a page's actions: a search bar, and the labels of what can be clicked. */
function webshopActions(actions: readonly string[]) {
  const hasSearchBar = actions.some((a) => a.startsWith("search["));
  const clickables = actions.flatMap((a) => {
    const m = /^click\[(.*)\]$/.exec(a);
    return m ? [m[1] as string] : [];
  });
  return { has_search_bar: hasSearchBar, clickables: hasSearchBar ? ["search", ...clickables] : clickables };
}

export async function handleAgentGym(
  service: EnvService,
  ids: Record<Flavour, AgentGymIds>,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
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
  const post = req.method === "POST";
  const text = (s: Session) => s.episode?.lastObservation?.text ?? "";
  const actions = (s: Session) => s.episode?.lastObservation?.actions ?? [];

  if (req.method === "GET" && (route === "/" || route === "")) {
    sendJson(res, 200, flavour === "webshop" ? "ok" : "This is environment AlfWorld (DreamGym).");
    return true;
  }
  if (req.method === "GET" && route === "/list_envs") {
    sendJson(res, 200, table.list());
    return true;
  }
  if (post && route === "/create") {
    const session = service.open("agentgym", { flavour });
    const id = table.add(session);
    sendJson(res, 200, flavour === "webshop" ? id : { id });
    return true;
  }
  if (flavour === "webshop") {
    if (post && route === "/reset") {
      const body = parse(WebshopReset, await readJson(req), "bad reset");
      const session = table.get(body.env_idx);
      await service.reset(session, body.session_id != null ? { seed: body.session_id } : {}, defaults);
      sendJson(res, 200, [text(session), null]);
      return true;
    }
    if (post && route === "/step") {
      const body = parse(WebshopStep, await readJson(req), "bad step");
      const reply = await service.step(table.get(body.env_idx), { action: body.action });
      sendJson(res, 200, {
        state: reply.observation.text,
        reward: reply.reward ?? 0,
        done: reply.done,
        info: null,
      });
      return true;
    }
    if (post && route === "/close") {
      const body = parse(WebshopClose, await readJson(req), "bad close");
      service.close(table.get(body.env_idx));
      table.remove(body.env_idx);
      sendJson(res, 200, { closed: true });
      return true;
    }
    if (req.method !== "GET") return false;
    const session = table.get(intParam(url, "env_idx"));
    session.touch();
    if (route === "/observation") sendJson(res, 200, text(session));
    else if (route === "/available_actions") sendJson(res, 200, webshopActions(actions(session)));
    else if (route === "/instruction_text")
      sendJson(res, 200, `Instruction: ${session.episode?.task.instruction ?? ""}`);
    else if (route === "/state")
      sendJson(res, 200, {
        url: "",
        html: text(session),
        instruction_text: session.episode?.task.instruction ?? "",
      });
    else return false;
    return true;
  }

  if (post && route === "/reset") {
    const body = parse(AlfworldReset, await readJson(req), "bad reset");
    const session = table.get(body.id);
    const reply = await service.reset(session, body.game != null ? { seed: body.game } : {}, defaults);
    sendJson(res, 200, {
      id: body.id,
      observation: reply.observation.text,
      available_actions: reply.observation.available_actions,
      task_type: reply.observation.task_id,
    });
    return true;
  }
  if (post && route === "/step") {
    const body = parse(AlfworldStep, await readJson(req), "bad step");
    const reply = await service.step(table.get(body.id), { action: body.action });
    sendJson(res, 200, {
      observation: reply.observation.text,
      reward: reply.reward ?? 0,
      available_actions: reply.observation.available_actions,
      done: reply.done,
    });
    return true;
  }
  if (post && route === "/close") {
    const body = parse(AlfworldClose, await readJson(req), "bad close");
    service.close(table.get(body.id));
    table.remove(body.id);
    sendJson(res, 200, { closed: true });
    return true;
  }
  if (req.method !== "GET") return false;
  const session = table.get(intParam(url, "id"));
  session.touch();
  if (route === "/observation") sendJson(res, 200, text(session));
  else if (route === "/available_actions") sendJson(res, 200, actions(session));
  else if (route === "/detail") sendJson(res, 200, service.state(session));
  else return false;
  return true;
}
