/**
 * One JSON request to a remote environment over HTTP(S): the registration's bearer token, a deadline, and every
 * way it can fail turned into a `RequestFailure` that says what was asked and what came back.
 */
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

/** Why a request got no answer, in a few words: "connection refused (ECONNREFUSED)". */
export function networkDetail(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
    return `no answer within ${timeoutMs} ms`;
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === "string" ? cause.code : undefined;
  const words: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ECONNRESET: "connection reset",
    UND_ERR_SOCKET: "connection dropped",
    ENOTFOUND: "host not found",
    EAI_AGAIN: "host not found",
    EHOSTUNREACH: "host unreachable",
    ETIMEDOUT: "connection timed out",
  };
  const message =
    typeof cause?.message === "string"
      ? cause.message
      : error instanceof Error
        ? error.message
        : String(error);
  return code ? `${words[code] ?? message} (${code})` : message;
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
    const res = await fetch(url, {
      method: req.method,
      headers: {
        accept: "application/json",
        ...(req.body !== undefined ? { "content-type": "application/json" } : {}),
        ...authHeaders(spec),
      },
      ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
      signal: AbortSignal.timeout(req.timeoutMs),
    });
    status = res.status;
    text = await res.text();
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
