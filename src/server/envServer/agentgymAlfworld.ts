/**
 * AgentGym's ALFWorld server (agentenv-alfworld): POST /create → {id}; /reset {id, game, world_type} → {id,
 * observation, available_actions, task_type}; /step {id, action} → {observation, reward, available_actions, done};
 * GET /observation, /available_actions, /detail with ?id=; POST /close {id}. game is a train task number of the
 * household.
 */
import { z } from "zod";
import { type AgentGymRequest, agentgymStep, intParam, parse } from "./agentgymShared";
import { readJson, sendJson } from "./http";
import type { EnvService } from "./service";
import type { Session } from "./sessions";

const AlfworldReset = z.object({
  id: z.number().int(),
  game: z.number().int().min(0).nullish(),
  world_type: z.enum(["Text", "Embody", "Hybrid"]).default("Text"),
});
// The action is played whatever it is: an empty or missing one is an invalid action (stepInput.ts).
const AlfworldStep = z.object({ id: z.number().int(), action: z.unknown().optional() });
const AlfworldClose = z.object({ id: z.number().int() });

/** What AgentGym's ALFWorld wrapper keeps per environment, besides the episode: it answers /detail with it. */
interface AlfworldInfo {
  world_type?: string;
  game?: number | null;
  reward?: number;
}

const info = (s: Session) => s.tag as AlfworldInfo;

/**
 * `/detail`: the ALFWorld wrapper's info of the environment (world_type, game, observation, available_actions,
 * done, reward of the last step, deleted), then DreamGym's own fields of the episode under names it does not use.
 */
function detail(service: EnvService, session: Session): Record<string, unknown> {
  const episode = session.episode;
  const { done: _same, ...state } = service.state(session);
  if (!episode) return { done: false, reward: 0, deleted: false };
  return {
    world_type: info(session).world_type ?? "Text",
    game: info(session).game ?? null,
    observation: episode.lastObservation?.text ?? "",
    available_actions: episode.lastObservation?.actions ?? [],
    done: episode.done,
    reward: info(session).reward ?? 0,
    deleted: false,
    ...state,
  };
}

export async function alfworld({ service, table, req, res, url, route, defaults }: AgentGymRequest) {
  if (req.method === "POST" && route === "/reset") {
    const body = parse(AlfworldReset, await readJson(req), "bad reset");
    const session = table.get(body.id);
    const reply = await service.reset(session, body.game != null ? { seed: body.game } : {}, defaults);
    Object.assign(info(session), { world_type: body.world_type, game: body.game ?? null, reward: 0 });
    sendJson(res, 200, {
      id: body.id,
      observation: reply.observation.text,
      available_actions: reply.observation.available_actions,
      task_type: reply.observation.task_id,
    });
    return true;
  }
  if (req.method === "POST" && route === "/step") {
    const body = parse(AlfworldStep, await readJson(req), "bad step");
    const session = table.get(body.id);
    const reply = await agentgymStep(service, session, body.action, body.id);
    if ("error" in reply) sendJson(res, 200, reply);
    else {
      info(session).reward = reply.reward ?? 0;
      sendJson(res, 200, {
        observation: reply.observation.text,
        reward: reply.reward ?? 0,
        available_actions: reply.observation.available_actions,
        done: reply.done,
      });
    }
    return true;
  }
  if (req.method === "POST" && route === "/close") {
    const body = parse(AlfworldClose, await readJson(req), "bad close");
    service.close(table.get(body.id));
    table.remove(body.id);
    sendJson(res, 200, { closed: true });
    return true;
  }
  if (req.method !== "GET") return false;
  const session = table.get(intParam(url, "id"));
  session.touch();
  if (route === "/observation") sendJson(res, 200, session.episode?.lastObservation?.text ?? "");
  else if (route === "/available_actions")
    sendJson(res, 200, session.episode?.lastObservation?.actions ?? []);
  else if (route === "/detail") sendJson(res, 200, detail(service, session));
  else return false;
  return true;
}
