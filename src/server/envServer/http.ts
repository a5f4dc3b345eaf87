import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { EnvServerError, errorData } from "./errors";

const MAX_BODY = 1_000_000;
const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/**
 * Anything not from this machine must carry `Authorization: Bearer <token>`: the server writes runs into the
 * database and spends the experience model's compute. Without a configured token only this machine is served.
 */
export function authorize(
  remoteAddress: string | undefined,
  header: string | undefined,
  token?: string,
): void {
  if (remoteAddress !== undefined && LOOPBACK.has(remoteAddress)) return;
  if (!token)
    throw new EnvServerError(
      "UNAUTHORIZED",
      "this server answers other machines only with a token: start it with DREAMGYM_ENV_TOKEN set",
    );
  const given = /^Bearer\s+(.+)$/i.exec(header ?? "")?.[1]?.trim() ?? "";
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  if (a.length !== b.length || !timingSafeEqual(a, b))
    throw new EnvServerError("UNAUTHORIZED", "missing or wrong bearer token (Authorization: Bearer <token>)");
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
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** An error as JSON: OpenEnv's `{type: "error", data: {message, code}}`, with FastAPI's `detail` beside it. */
export function sendError(res: ServerResponse, error: unknown): void {
  const data = errorData(error);
  const status = error instanceof EnvServerError ? error.status : 500;
  sendJson(res, status, { type: "error", data, detail: data.message });
}
