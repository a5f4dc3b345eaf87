/** What AgentGym's two flavours share: their environment numbers, and how a request is read and stepped. */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "zod";
import { EnvServerError, validationError } from "./errors";
import type { StepReply } from "./protocol";
import type { EnvService, ResetDefaults } from "./service";
import type { Session } from "./sessions";

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

/** One request on an AgentGym route. */
export interface AgentGymRequest {
  service: EnvService;
  table: AgentGymIds;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  route: string;
  defaults: ResetDefaults;
}

export function parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error, what);
  return parsed.data;
}

export function intParam(url: URL, name: string): number {
  const value = url.searchParams.get(name);
  if (value === null || !/^\d+$/.test(value))
    throw new EnvServerError("VALIDATION_ERROR", `?${name}= is required`);
  return Number(value);
}

/**
 * A step, or AgentGym's answer to a step after the episode ended: its wrappers' `{"error": ...}` with HTTP 200
 * (ALFWorld's "The task with environment N has finished."), for AgentGym's clients take any other status as a
 * crash. Whatever else went wrong stays an error status.
 */
export async function agentgymStep(
  service: EnvService,
  session: Session,
  action: unknown,
  id: number,
): Promise<StepReply | { error: string }> {
  try {
    return await service.step(session, { action });
  } catch (error) {
    if (error instanceof EnvServerError && error.code === "EPISODE_DONE")
      return { error: `The task with environment ${id} has finished.` };
    throw error;
  }
}
