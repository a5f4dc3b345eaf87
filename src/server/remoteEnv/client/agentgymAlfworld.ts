/**
 * AgentGym's ALFWorld server: POST /create → `{id}`, /reset `{id, game, world_type}` and /step `{id, action}`
 * answer with the observation and the admissible actions (`available_actions`) at once. Its first observation
 * states the task ("Your task is to: …"), which is where the instruction is read from.
 */
import { z } from "zod";
import type { RemoteEnvSpec, RemoteObservation } from "@/core/envs/remote/spec";
import { agentgymHealth, closeQuietly, create, post, stepSession } from "./agentgymWire";
import type { ProtocolClient, RemoteSession, ResetTarget } from "./session";

const ResetReply = z.looseObject({ observation: z.string(), available_actions: z.array(z.string()) });

class AlfworldSession implements RemoteSession {
  constructor(
    private readonly spec: RemoteEnvSpec,
    private readonly id: number | string,
  ) {}

  async reset(target: ResetTarget): Promise<RemoteObservation> {
    const body = { world_type: "Text", ...this.spec.resetFields, id: this.id, game: target.number };
    const reply = await post(this.spec, "/reset", body, ResetReply, this.spec.resetTimeoutMs);
    return { text: reply.observation, actions: reply.available_actions };
  }

  step(action: string) {
    return stepSession(this.spec, this.id, action);
  }

  close(): Promise<void> {
    return closeQuietly(this.spec, { id: this.id });
  }
}

export const agentgymAlfworld: ProtocolClient = {
  async open(spec) {
    return new AlfworldSession(spec, await create(spec));
  },
  health: agentgymHealth,
  reusable: true,
  instructionPattern: /Your task is to:\s*(.*)/,
};
