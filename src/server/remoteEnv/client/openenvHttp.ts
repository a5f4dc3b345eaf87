/**
 * OpenEnv over HTTP: POST /reset and POST /step `{action: {...}}`. Published OpenEnv servers build a fresh
 * environment per HTTP request, so only servers that keep an episode between calls can be stepped this way: DreamGym's
 * addresses it by `episode_id`, which is sent with the reset and every step (OpenEnv servers accept and ignore it).
 * There is no close route; such servers end an episode at done or when it idles out.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { RemoteEnvSpec } from "@/core/envs/remote/spec";
import { requestJson } from "./http";
import { actionData, OpenenvResult, openenvHealth, readResult, resetData } from "./openenvWire";
import type { ProtocolClient, RemoteSession, ResetTarget } from "./session";

const Result = OpenenvResult.extend({
  metadata: z.looseObject({ episode_id: z.string().nullish() }).nullish(),
});

class HttpSession implements RemoteSession {
  private episodeId: string = randomUUID();
  private started = false;

  constructor(private readonly spec: RemoteEnvSpec) {}

  async reset(target: ResetTarget) {
    const reply = await requestJson(this.spec, {
      method: "POST",
      path: "/reset",
      body: { ...resetData(this.spec, target), episode_id: this.episodeId },
      timeoutMs: this.spec.resetTimeoutMs,
      schema: Result,
      sessionOpen: false,
    });
    this.episodeId = reply.metadata?.episode_id ?? this.episodeId;
    this.started = true;
    return readResult(reply).observation;
  }

  async step(action: string) {
    const reply = await requestJson(this.spec, {
      method: "POST",
      path: "/step",
      body: { action: actionData(this.spec, action), episode_id: this.episodeId },
      timeoutMs: this.spec.stepTimeoutMs,
      schema: Result,
      sessionOpen: this.started,
    });
    return readResult(reply);
  }

  async close(): Promise<void> {}
}

export const openenvHttp: ProtocolClient = {
  async open(spec) {
    return new HttpSession(spec);
  },
  health: openenvHealth,
};
