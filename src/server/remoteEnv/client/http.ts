/**
 * One JSON request to a remote environment over HTTP(S): the registration's bearer token, a deadline, and every
 * way it can fail turned into a `RequestFailure` that says what was asked and what came back. Sent with node:http
 * on kept-alive connections (which follow the server's keep-alive hint): a step's request costs a third of what
 * fetch's did against a local server.
 */
import http from "node:http";
import https from "node:https";
import type { z } from "zod";
import type { RemoteEnvSpec } from "@/core/envs/remote/spec";
import { excerpt, kindOfStatus, RequestFailure } from "./failure";

export interface JsonRequest<T> {
  method: "GET" | "POST";
  /** Under the registered URL, e.g. "/step" (a base like /agentgym/webshop is kept). */
  path: string;
  query?: Record<string, string | number>;
  body?: unknown;
  timeoutMs: number;
  schema: z.ZodType<T>;
  /** True once the server gave us a session: a 404 then means it forgot it. */
  sessionOpen: boolean;
}

/** The registered URL as HTTP: a WebSocket registration's health route lives on the same host. */
export function httpBase(url: string): string {
  return url.replace(/^ws(s?):\/\//i, "http$1://").replace(/\/+$/, "");
}

export function wsBase(url: string): string {
  return url.replace(/^http(s?):\/\//i, "ws$1://").replace(/\/+$/, "");
}

export function authHeaders(spec: RemoteEnvSpec): Record<string, string> {
  return spec.token ? { authorization: `Bearer ${spec.token}` } : {};
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  EPIPE: "connection dropped",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host not found",
  EHOSTUNREACH: "host unreachable",
  ETIMEDOUT: "connection timed out",
};

/** Why a request got no answer, in a few words: "connection refused (ECONNREFUSED)". */
export function networkDetail(error: unknown, timeoutMs: number): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === "TimeoutError" || error.name === "AbortError") return `no answer within ${timeoutMs} ms`;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string") return error.message;
  return `${NETWORK_WORDS[code] ?? error.message} (${code})`;
}

/** A body that parsed as JSON but not as the reply expected: AgentGym servers answer `{error}` with a 200. */
export function malformedDetail(json: unknown, issue: string): string {
  const error = (json as { error?: unknown } | null)?.error;
  if (typeof error === "string") return `the server answered with an error: ${excerpt(error)}`;
  return `unexpected reply (${issue}): ${excerpt(JSON.stringify(json) ?? "")}`;
}

export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join(".") || "(root)"}: ${issue.message}` : "invalid";
}

export async function requestJson<T>(spec: RemoteEnvSpec, req: JsonRequest<T>): Promise<T> {
  const url = new URL(httpBase(spec.url) + req.path);
  for (const [k, v] of Object.entries(req.query ?? {})) url.searchParams.set(k, String(v));
  const what = `${req.method} ${url.origin}${url.pathname}`;
  let status: number;
  let text: string;
  try {
    ({ status, text } = await send(url, req, authHeaders(spec)));
  } catch (error) {
    throw new RequestFailure("unavailable", what, networkDetail(error, req.timeoutMs));
  }
  if (status < 200 || status >= 300)
    throw new RequestFailure(
      kindOfStatus(status, req.sessionOpen),
      what,
      `HTTP ${status}${text ? `: ${excerpt(text)}` : ""}`,
      status,
    );
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new RequestFailure("malformed", what, `reply is not JSON: ${excerpt(text) || "(empty)"}`, status);
  }
  const parsed = req.schema.safeParse(json);
  if (!parsed.success)
    throw new RequestFailure("malformed", what, malformedDetail(json, firstIssue(parsed.error)), status);
  return parsed.data;
}

const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

class TimeoutError extends Error {
  override readonly name = "TimeoutError";
}

/** The status and body, or an error: no answer (the whole body included) within the request's deadline. */
function send(
  url: URL,
  req: JsonRequest<unknown>,
  auth: Record<string, string>,
): Promise<{ status: number; text: string }> {
  const body = req.body !== undefined ? JSON.stringify(req.body) : undefined;
  const secure = url.protocol === "https:";
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request(
      url,
      {
        method: req.method,
        agent: secure ? agents.https : agents.http,
        headers: {
          accept: "application/json",
          ...(body !== undefined
            ? { "content-type": "application/json", "content-length": Buffer.byteLength(body) }
            : {}),
          ...auth,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") });
        });
        res.on("error", reject);
      },
    );
    const timer = setTimeout(() => request.destroy(new TimeoutError()), req.timeoutMs);
    request.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end(body);
  });
}
