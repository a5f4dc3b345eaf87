/**
 * OpenEnv over WebSocket: one connection to `<url>/ws` is one session; `{type: "reset", data}` and
 * `{type: "step", data: <action>}` are answered by `{type: "observation", data: {observation, reward, done}}` or
 * `{type: "error", data: {message, code}}`.
 */
import { z } from "zod";
import type { RemoteEnvSpec } from "@/core/envs/remote/spec";
import { excerpt, type FailureKind, RequestFailure } from "./failure";
import { firstIssue, malformedDetail } from "./http";
import { actionData, OpenenvResult, openenvHealth, readResult, resetData } from "./openenvWire";
import type { ProtocolClient, RemoteSession } from "./session";
import { WsPeer } from "./wsPeer";

const Reply = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("observation"), data: OpenenvResult }),
  z.looseObject({
    type: z.literal("error"),
    data: z.looseObject({ message: z.string().optional(), code: z.string().optional() }).default({}),
  }),
]);

/**
 * OpenEnv's error codes (and DreamGym's), by what the episode should do: a full server is asked again later, a
 * forgotten session is rebuilt, a crash inside the environment counts as an unusable reply, and a message the
 * server rejects is final.
 */
const ERROR_KINDS: Record<string, FailureKind> = {
  CAPACITY_REACHED: "unavailable",
  SESSION_ERROR: "lost",
  UNKNOWN_EPISODE: "lost",
  NOT_RESET: "lost",
  EXECUTION_ERROR: "malformed",
  FACTORY_ERROR: "malformed",
};

class WsSession implements RemoteSession {
  constructor(
    private readonly spec: RemoteEnvSpec,
    private readonly peer: WsPeer,
  ) {}

  async reset(target: Parameters<RemoteSession["reset"]>[0]) {
    const result = await this.ask(
      { type: "reset", data: resetData(this.spec, target) },
      this.spec.resetTimeoutMs,
    );
    return result.observation;
  }

  step(action: string) {
    return this.ask({ type: "step", data: actionData(this.spec, action) }, this.spec.stepTimeoutMs);
  }

  close(): Promise<void> {
    return this.peer.close({ type: "close" });
  }

  private async ask(message: { type: string; data: unknown }, timeoutMs: number) {
    const json = await this.peer.request(message, timeoutMs, message.type);
    const what = `${this.peer.where} ${message.type}`;
    const parsed = Reply.safeParse(json);
    if (!parsed.success)
      throw new RequestFailure("malformed", what, malformedDetail(json, firstIssue(parsed.error)));
    const reply = parsed.data;
    if (reply.type === "error") {
      const code = reply.data.code ?? "UNKNOWN";
      throw new RequestFailure(
        ERROR_KINDS[code] ?? "refused",
        what,
        `${code}: ${excerpt(reply.data.message ?? "")}`,
      );
    }
    return readResult(reply.data);
  }
}

export const openenvWs: ProtocolClient = {
  async open(spec) {
    return new WsSession(spec, await WsPeer.connect(spec, spec.resetTimeoutMs));
  },
  health: openenvHealth,
};
