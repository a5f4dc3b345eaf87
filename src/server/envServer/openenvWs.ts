/**
 * OpenEnv's WebSocket session (/ws): one session per connection, its messages handled one at a time in the order
 * they came. A connection beyond the cap is told CAPACITY_REACHED and closed; one that goes away mid-episode
 * leaves the episode recorded as abandoned.
 */
import type { WebSocket } from "ws";
import { errorData } from "./errors";
import { WsMessage } from "./protocol";
import type { EnvService, ResetDefaults } from "./service";
import type { Session } from "./sessions";
import { wireJson } from "./wireJson";

/** WebSocket close codes: 1008 policy (capacity), 1001 going away (idle timeout, shutdown). */
const CLOSE_POLICY = 1008;
const CLOSE_AWAY = 1001;

export function serveOpenenvWs(
  service: EnvService,
  ws: WebSocket,
  defaults: ResetDefaults,
  client: string,
): void {
  const send = (message: unknown) => {
    if (ws.readyState === ws.OPEN) ws.send(wireJson(message));
  };
  let session: Session;
  try {
    session = service.open("ws", client);
  } catch (error) {
    send({ type: "error", data: errorData(error) });
    ws.close(CLOSE_POLICY, "capacity reached");
    return;
  }
  session.onExpire = (reason) => {
    send({ type: "error", data: { message: `session ${reason}`, code: "SESSION_ERROR" } });
    ws.close(CLOSE_AWAY, "session expired");
  };
  let chain: Promise<void> = Promise.resolve();
  ws.on("message", (raw) => {
    const arrived = performance.now();
    chain = chain.then(() => handle(raw.toString(), arrived));
  });
  ws.on("close", () => service.close(session));
  ws.on("error", () => service.close(session));

  async function handle(text: string, arrived: number): Promise<void> {
    if (session.closed) return;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      send({ type: "error", data: { message: "message is not valid JSON", code: "INVALID_JSON" } });
      return;
    }
    const parsed = WsMessage.safeParse(json);
    if (!parsed.success) {
      const type = (json as { type?: unknown } | null)?.type;
      const known = ["reset", "step", "state", "close"].includes(type as string);
      send({
        type: "error",
        data: known
          ? {
              message: `bad ${String(type)} message: ${parsed.error.issues[0]?.message}`,
              code: "VALIDATION_ERROR",
            }
          : { message: `unknown message type ${JSON.stringify(type)}`, code: "UNKNOWN_TYPE" },
      });
      return;
    }
    const message = parsed.data;
    try {
      if (message.type === "reset")
        send({ type: "observation", data: await service.reset(session, message.data, defaults) });
      else if (message.type === "step") {
        send({ type: "observation", data: await service.step(session, message.data) });
        service.stepTimer?.(performance.now() - arrived, session.episode?.lastEnvMs ?? 0);
      } else if (message.type === "state") send({ type: "state", data: service.state(session) });
      else {
        service.close(session);
        ws.close(1000, "closed");
      }
    } catch (error) {
      send({ type: "error", data: errorData(error) });
    }
  }
}
