/**
 * AgentGym's generic text environment (BabyAI, SciWorld, TextCraft and tool servers): POST /create → `{id}`,
 * /reset `{id, data_idx}` → `{observation, ...}` (SciWorld adds `task_description`), /step `{id, action}` →
 * `{observation, reward, done}`, POST /close `{id}`. GET /available_actions?id= exists on some servers only: it is
 * asked once per server, and a server without it offers no action list.
 */
import { z } from "zod";
import type { RemoteEnvSpec, RemoteObservation } from "@/core/envs/remote/spec";
import {
  ActionList,
  actionList,
  agentgymHealth,
  closeQuietly,
  create,
  get,
  post,
  stepSession,
} from "./agentgymWire";
import { RequestFailure } from "./failure";
import type { ProtocolClient, RemoteSession, ResetTarget } from "./session";

const ResetReply = z.looseObject({
  observation: z.string(),
  task_description: z.string().optional(),
  available_actions: z.array(z.string()).optional(),
});

/** Servers (by URL) known to lack GET /available_actions. */
const withoutActionRoute = new Set<string>();

class GenericSession implements RemoteSession {
  constructor(
    private readonly spec: RemoteEnvSpec,
    private readonly id: number | string,
  ) {}

  async reset(target: ResetTarget): Promise<RemoteObservation> {
    const body = { ...this.spec.resetFields, id: this.id, data_idx: target.number };
    const reply = await post(this.spec, "/reset", body, ResetReply, this.spec.resetTimeoutMs);
    const text = reply.task_description
      ? `${reply.task_description}\n${reply.observation}`
      : reply.observation;
    const actions = reply.available_actions ?? (await this.actions(this.spec.resetTimeoutMs));
    return { text, ...(actions ? { actions } : {}) };
  }

  step(action: string) {
    return stepSession(this.spec, this.id, action, () => this.actions(this.spec.stepTimeoutMs));
  }

  close(): Promise<void> {
    return closeQuietly(this.spec, { id: this.id });
  }

  private async actions(timeoutMs: number): Promise<string[] | undefined> {
    if (withoutActionRoute.has(this.spec.url)) return undefined;
    try {
      // Asked as a first request: a 404 here means the server has no such route, not that it forgot the session.
      const reply = await get(this.spec, "/available_actions", { id: this.id }, ActionList, timeoutMs, false);
      return actionList(reply);
    } catch (error) {
      if (!(error instanceof RequestFailure) || error.retryable) throw error;
      withoutActionRoute.add(this.spec.url);
      return undefined;
    }
  }
}

export const agentgym: ProtocolClient = {
  async open(spec) {
    return new GenericSession(spec, await create(spec));
  },
  health: agentgymHealth,
  reusable: true,
};
