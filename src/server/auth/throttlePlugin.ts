import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import type { BetterAuthPlugin } from "better-auth/types";
import type { Db } from "../db";
import { clientAddress } from "./clientAddress";
import {
  type Outcome,
  refusalMessage,
  reserveAttempt,
  settleAttempt,
  type ThrottleKey,
  throttleKeys,
} from "./signInThrottle";

/** Better Auth's password sign-in: the one endpoint that checks a password someone typed. */
const SIGN_IN = "/sign-in/email";

interface HookContext {
  path?: string;
  body?: unknown;
  request?: Request;
  headers?: Headers;
}

/** The counters of an attempt: the email it names, and the address it came from (unknown for server-side calls). */
function keysOf(ctx: HookContext): ThrottleKey[] {
  const email = (ctx.body as { email?: unknown } | undefined)?.email;
  const headers = ctx.request?.headers ?? ctx.headers;
  return throttleKeys(typeof email === "string" ? email : null, headers ? clientAddress(headers) : null);
}

/** What Better Auth answered: 401 is a wrong email or password; any other refusal checked no password. */
function outcomeOf(returned: unknown): Outcome {
  if (!isAPIError(returned)) return "signed-in";
  return returned.statusCode === 401 ? "wrong-password" : "not-checked";
}

/**
 * Failed password sign-ins counted in the database per account and per client address (signInThrottle.ts), around
 * Better Auth's own check: an attempt is counted before the password is checked and refused with 429, a sentence
 * and Retry-After while its account or address is locked; its result settles it after.
 */
export function signInThrottle(db: Db) {
  return {
    id: "dreamgym-sign-in-throttle",
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === SIGN_IN,
          handler: createAuthMiddleware(async (ctx) => {
            const now = new Date();
            const refusal = await reserveAttempt(db, keysOf(ctx), now);
            if (!refusal) return;
            const seconds = Math.max(1, Math.ceil((refusal.until.getTime() - now.getTime()) / 1000));
            throw new APIError(
              "TOO_MANY_REQUESTS",
              { message: refusalMessage(refusal, now), code: "TOO_MANY_FAILED_SIGN_INS" },
              { "Retry-After": String(seconds) },
            );
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) => ctx.path === SIGN_IN,
          handler: createAuthMiddleware(async (ctx) => {
            await settleAttempt(db, keysOf(ctx), outcomeOf(ctx.context.returned));
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
