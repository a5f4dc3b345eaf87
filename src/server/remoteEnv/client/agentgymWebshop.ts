/**
 * AgentGym's WebShop server: POST /create → a number (`env_idx`), /reset `{env_idx, session_id}` → `[text, null]`,
 * /step `{env_idx, action}` → `{state, reward, done, info}`, and GETs with ?env_idx= for /observation,
 * /available_actions (`{has_search_bar, clickables}`) and /instruction_text. Its own client reads the reset's text
 * from /observation, and so does this one.
 */
import { z } from "zod";
import type { RemoteEnvSpec, RemoteObservation } from "@/core/envs/remote/spec";
import { agentgymHealth, closeQuietly, create, get, post } from "./agentgymWire";
import type { ProtocolClient, RemoteSession, ResetTarget } from "./session";

const Available = z.looseObject({ has_search_bar: z.boolean(), clickables: z.array(z.string()) });
const StepReply = z.looseObject({ state: z.string(), reward: z.number().nullish(), done: z.boolean() });

/**
 * WebShop's page as DreamGym's action grammar: the search bar is `search[...]` (its "search" button is how the bar
 * is used, not a separate action), every other clickable is `click[label]`.
 */
export function webshopActions(available: z.infer<typeof Available>): string[] {
  const bar = available.has_search_bar;
  return [
    ...(bar ? ["search[...]"] : []),
    ...available.clickables.filter((c) => !(bar && c.toLowerCase() === "search")).map((c) => `click[${c}]`),
  ];
}

/** "Instruction: Find me …" as the instruction itself. */
export function stripInstructionLabel(text: string): string {
  return text.replace(/^\s*instruction\s*:\s*/i, "").trim();
}

class WebshopSession implements RemoteSession {
  constructor(
    private readonly spec: RemoteEnvSpec,
    private readonly envIdx: number | string,
  ) {}

  async reset(target: ResetTarget): Promise<RemoteObservation> {
    const body = { ...this.spec.resetFields, env_idx: this.envIdx, session_id: target.number };
    await post(this.spec, "/reset", body, z.unknown(), this.spec.resetTimeoutMs);
    const text = await this.get("/observation", z.string(), this.spec.resetTimeoutMs);
    const actions = webshopActions(await this.get("/available_actions", Available, this.spec.resetTimeoutMs));
    return { text, actions };
  }

  async step(action: string) {
    const body = { env_idx: this.envIdx, action };
    const reply = await post(this.spec, "/step", body, StepReply, this.spec.stepTimeoutMs);
    const actions = reply.done
      ? undefined
      : webshopActions(await this.get("/available_actions", Available, this.spec.stepTimeoutMs));
    return {
      observation: { text: reply.state, ...(actions ? { actions } : {}) },
      reward: reply.reward ?? 0,
      done: reply.done,
    };
  }

  async instruction(): Promise<string> {
    return stripInstructionLabel(await this.get("/instruction_text", z.string(), this.spec.resetTimeoutMs));
  }

  close(): Promise<void> {
    return closeQuietly(this.spec, { env_idx: this.envIdx });
  }

  private get<T>(path: string, schema: z.ZodType<T>, timeoutMs: number): Promise<T> {
    return get(this.spec, path, { env_idx: this.envIdx }, schema, timeoutMs);
  }
}

export const agentgymWebshop: ProtocolClient = {
  async open(spec) {
    return new WebshopSession(spec, await create(spec));
  },
  health: agentgymHealth,
  reusable: true,
};
