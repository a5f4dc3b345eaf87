import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { EnvServerError, errorData } from "./errors";
import { wireJson } from "./wireJson";

const MAX_BODY = 1_000_000;
const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/** Checks a signed-in person's session token: who they are, and whether their role may train here. */
export type SessionCheck = (authorization: string) => Promise<{ role: string; allowed: boolean } | null>;

/**
 * Who may use the server, which writes runs into the database and spends the experience model's compute:
 * - a bearer token that is a signed-in person's session (`npm run cli -- users token`), whose role may train
 *   (researchers and admins; anyone else is refused with 403);
 * - the deployment's own token (DREAMGYM_ENV_TOKEN), for trainers that run as a service;
 * - without a token, this machine only (its processes can read the database anyway).
 * A token that is given must be right, from this machine too.
 */
export async function authorize(
  remoteAddress: string | undefined,
  header: string | undefined,
  token?: string,
  session?: SessionCheck,
): Promise<void> {
  const given = /^Bearer\s+(.+)$/i.exec(header ?? "")?.[1]?.trim() ?? "";
  if (!given) {
    if (remoteAddress !== undefined && LOOPBACK.has(remoteAddress)) return;
    throw new EnvServerError(
      "UNAUTHORIZED",
      "other machines must send Authorization: Bearer <token>: a user's session token (npm run cli -- users token) or the server's DREAMGYM_ENV_TOKEN",
    );
  }
  if (token && sameSecret(given, token)) return;
  const user = session ? await session(`Bearer ${given}`) : null;
  if (!user)
    throw new EnvServerError("UNAUTHORIZED", "missing or wrong bearer token (Authorization: Bearer <token>)");
  if (!user.allowed)
    throw new EnvServerError(
      "FORBIDDEN",
      `your role (${user.role}) may not train against the environment server`,
    );
}

function sameSecret(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new EnvServerError("VALIDATION_ERROR", `request body over ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8").trim();
  if (text === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new EnvServerError("INVALID_JSON", "the request body is not valid JSON");
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = wireJson(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** An error as JSON: OpenEnv's `{type: "error", data: {message, code}}`, with FastAPI's `detail` beside it. */
export function sendError(res: ServerResponse, error: unknown): void {
  const data = errorData(error);
  const status = error instanceof EnvServerError ? error.status : 500;
  sendJson(res, status, { type: "error", data, detail: data.message });
}
