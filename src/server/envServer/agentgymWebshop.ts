/**
 * AgentGym's WebShop server (agentenv-webshop): POST /create → an int; /reset {env_idx, session_id} →
 * [observation, null]; /step {env_idx, action} → {state, reward, done, info}; GET /observation,
 * /available_actions ({has_search_bar, clickables}), /instruction_text, /state with ?env_idx=; POST /close
 * {env_idx}. session_id is a train task number of the shop.
 */
import { z } from "zod";
import { type AgentGymRequest, agentgymStep, intParam, parse } from "./agentgymShared";
import { readJson, sendJson } from "./http";
import type { Session } from "./sessions";

const WebshopReset = z.object({ env_idx: z.number().int(), session_id: z.number().int().min(0).nullish() });
// The action is played whatever it is: an empty or missing one is an invalid action (stepInput.ts).
const WebshopStep = z.object({ env_idx: z.number().int(), action: z.unknown().optional() });
const WebshopClose = z.object({ env_idx: z.number().int() });

/** WebShop's view of a page's actions: a search bar, and the labels of what can be clicked. */
function webshopActions(actions: readonly string[]) {
  const hasSearchBar = actions.some((a) => a.startsWith("search["));
  const clickables = actions.flatMap((a) => {
    const m = /^click\[(.*)\]$/.exec(a);
    return m ? [m[1] as string] : [];
  });
  return { has_search_bar: hasSearchBar, clickables: hasSearchBar ? ["search", ...clickables] : clickables };
}

const text = (s: Session) => s.episode?.lastObservation?.text ?? "";
const instruction = (s: Session) => s.episode?.task.instruction ?? "";

export async function webshop({ service, table, req, res, url, route, defaults }: AgentGymRequest) {
  if (req.method === "POST" && route === "/reset") {
    const body = parse(WebshopReset, await readJson(req), "bad reset");
    const session = table.get(body.env_idx);
    await service.reset(session, body.session_id != null ? { seed: body.session_id } : {}, defaults);
    sendJson(res, 200, [text(session), null]);
    return true;
  }
  if (req.method === "POST" && route === "/step") {
    const body = parse(WebshopStep, await readJson(req), "bad step");
    const session = table.get(body.env_idx);
    const reply = await agentgymStep(service, session, body.action, body.env_idx);
    // After the end, WebShop's four fields beside the error: its client reads them from every step's answer.
    if ("error" in reply)
      sendJson(res, 200, { state: text(session), reward: 0, done: true, info: null, error: reply.error });
    else
      sendJson(res, 200, {
        state: reply.observation.text,
        reward: reply.reward ?? 0,
        done: reply.done,
        info: null,
      });
    return true;
  }
  if (req.method === "POST" && route === "/close") {
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
  else if (route === "/available_actions")
    sendJson(res, 200, webshopActions(session.episode?.lastObservation?.actions ?? []));
  else if (route === "/instruction_text") sendJson(res, 200, `Instruction: ${instruction(session)}`);
  else if (route === "/state")
    sendJson(res, 200, { url: "", html: text(session), instruction_text: instruction(session) });
  else return false;
  return true;
}
