import type { z } from "zod";

/**
 * The codes a client can act on. OpenEnv's own (INVALID_JSON, UNKNOWN_TYPE, VALIDATION_ERROR, EXECUTION_ERROR,
 * CAPACITY_REACHED, SESSION_ERROR) and ours for what a training loop gets wrong: an episode the server does not
 * know (or freed after its idle timeout), a step after done or before reset, two steps at once, a domain that is
 * neither built in nor imported.
 */
export const ERROR_STATUS = {
  INVALID_JSON: 400,
  UNKNOWN_TYPE: 400,
  VALIDATION_ERROR: 422,
  EXECUTION_ERROR: 500,
  CAPACITY_REACHED: 503,
  SESSION_ERROR: 409,
  UNKNOWN_EPISODE: 404,
  EPISODE_DONE: 409,
  NOT_RESET: 409,
  SESSION_BUSY: 409,
  UNKNOWN_RUN: 404,
  UNKNOWN_TASK: 404,
  UNKNOWN_DOMAIN: 404,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export class EnvServerError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** A zod failure as one readable line: which field, what is wrong. */
export function validationError(error: z.ZodError, what: string): EnvServerError {
  const where = error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
  return new EnvServerError("VALIDATION_ERROR", `${what}: ${where}`);
}

/** Any error as OpenEnv's error payload; unexpected ones are execution errors. */
export function errorData(error: unknown): { message: string; code: ErrorCode } {
  if (error instanceof EnvServerError) return { message: error.message, code: error.code };
  return { message: error instanceof Error ? error.message : String(error), code: "EXECUTION_ERROR" };
}
