/**
 * A real HTTP server on 127.0.0.1 that speaks enough of the OpenAI protocol for the openai backends' tests: each
 * request is recorded and answered by a scripted handler (ok content, 429, 500, hang, malformed or truncated
 * JSON, a 400 rejecting response_format, any JSON body for other endpoints such as embeddings). No network.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { createLlmClient, type LlmClient, type LlmClientOptions } from "@/core/llm";

/** The parts of a chat-completions request body the tests look at; anything else is kept as sent. */
const ChatRequestBody = z.looseObject({
  model: z.string().optional(),
  messages: z.array(z.looseObject({ role: z.string(), content: z.unknown() })).optional(),
  response_format: z.looseObject({ type: z.string() }).optional(),
  temperature: z.number().optional(),
  max_tokens: z.number().optional(),
});
export type ChatRequestBody = z.infer<typeof ChatRequestBody>;

export interface FakeRequest {
  /** 0-based order of arrival. */
  index: number;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body ({} when there was none or it was not JSON). */
  body: ChatRequestBody;
  rawBody: string;
  receivedAt: number;
}

export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

export type FakeReply =
  /** A chat completion with this message content. */
  | {
      kind: "ok";
      content: string | null;
      finishReason?: string;
      usage?: FakeUsage | null;
      model?: string;
      refusal?: string;
      delayMs?: number;
    }
  /** An OpenAI-style error body with this status (429, 500, 400...). */
  | {
      kind: "error";
      status: number;
      message: string;
      type?: string;
      param?: string | null;
      code?: string | null;
      headers?: Record<string, string>;
      delayMs?: number;
    }
  /** Any JSON body (embeddings, a broken completion). */
  | { kind: "json"; status?: number; body: unknown; headers?: Record<string, string>; delayMs?: number }
  /** Never answers; the connection is dropped when the server closes or the client gives up. */
  | { kind: "hang" }
  /** Drops the connection without an answer (ECONNRESET at the client). */
  | { kind: "reset" };

export type FakeHandler = (request: FakeRequest) => FakeReply | Promise<FakeReply>;

/** What the server did with one request: the handler's reply, and whether all of it reached the socket. */
export interface ServedReply {
  request: FakeRequest;
  reply: FakeReply;
  /** False for a hang or a reset, and for an answer whose client had gone before it was written. */
  delivered: boolean;
}

export interface FakeOpenAI {
  /** Base URL for the OpenAI SDK: http://127.0.0.1:PORT/v1 */
  url: string;
  requests: FakeRequest[];
  /** Each request's reply, in order of arrival (a reply is recorded once the handler has chosen it). */
  served: ServedReply[];
  /** Requests whose response has not finished yet (the client may still be waiting). */
  inFlight(): number;
  /** The most requests ever open at once. */
  maxInFlight(): number;
  close(): Promise<void>;
}

const DEFAULT_USAGE: FakeUsage = { prompt_tokens: 10, completion_tokens: 5 };

// ---- reply builders: the scripted responses tests use most ----

export const ok = (
  content: string | null,
  extra: Partial<Extract<FakeReply, { kind: "ok" }>> = {},
): FakeReply => ({
  kind: "ok",
  content,
  ...extra,
});

export const okJson = (value: unknown, extra: Partial<Extract<FakeReply, { kind: "ok" }>> = {}): FakeReply =>
  ok(JSON.stringify(value), extra);

/** 429, with a Retry-After in seconds when given. */
export const rateLimited = (retryAfterSeconds?: number): FakeReply => ({
  kind: "error",
  status: 429,
  message: "Rate limit reached for requests",
  type: "requests",
  code: "rate_limit_exceeded",
  ...(retryAfterSeconds !== undefined ? { headers: { "retry-after": String(retryAfterSeconds) } } : {}),
});

export const serverError = (status = 500): FakeReply => ({
  kind: "error",
  status,
  message: "The server had an error while processing your request.",
  type: "server_error",
});

export const hang = (): FakeReply => ({ kind: "hang" });
export const reset = (): FakeReply => ({ kind: "reset" });

/** Content that is not JSON at all. */
export const malformed = (text = 'Sure! {"reasoning": "the page loads", next_state: oops}'): FakeReply =>
  ok(text);

/** The first part of a JSON text, cut as a token limit would, with finish_reason "length". */
export const truncated = (value: unknown, keep = 0.6): FakeReply => {
  const text = JSON.stringify(value);
  return ok(text.slice(0, Math.max(1, Math.floor(text.length * keep))), { finishReason: "length" });
};

/** How OpenAI answers a response_format the model does not support. */
export const rejectResponseFormat = (type = "json_schema"): FakeReply => ({
  kind: "error",
  status: 400,
  message: `Invalid parameter: 'response_format' of type '${type}' is not supported with this model.`,
  type: "invalid_request_error",
  param: "response_format",
  code: null,
});

/** Answers requests in order with the given replies; the last one repeats. */
export function script(...replies: Array<FakeReply | FakeHandler>): FakeHandler {
  if (replies.length === 0) throw new Error("script needs at least one reply");
  let next = 0;
  return (request) => {
    const step = replies[Math.min(next, replies.length - 1)]!;
    next += 1;
    return typeof step === "function" ? step(request) : step;
  };
}

// ---- the server ----

function completionBody(reply: Extract<FakeReply, { kind: "ok" }>, request: FakeRequest): unknown {
  return {
    id: `chatcmpl-fake-${request.index}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: reply.model ?? request.body.model ?? "fake-model",
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: reply.content, refusal: reply.refusal ?? null },
        finish_reason: reply.finishReason ?? "stop",
      },
    ],
    ...(reply.usage === null ? {} : { usage: withTotal(reply.usage ?? DEFAULT_USAGE) }),
  };
}

function withTotal(usage: FakeUsage) {
  return { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
}

function parseBody(raw: string): ChatRequestBody {
  try {
    const parsed = ChatRequestBody.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

export async function startFakeOpenAI(handler: FakeHandler): Promise<FakeOpenAI> {
  const requests: FakeRequest[] = [];
  const served: ServedReply[] = [];
  let open = 0;
  let peak = 0;

  const server = http.createServer((req, res) => {
    open += 1;
    peak = Math.max(peak, open);
    let counted = true;
    // "close" fires both when the response is sent and when the client drops the connection (timeout, abort).
    res.on("close", () => {
      if (counted) open -= 1;
      counted = false;
    });
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      raw += chunk;
    });
    req.on("end", () => {
      const request: FakeRequest = {
        index: requests.length,
        method: req.method ?? "GET",
        path: req.url ?? "/",
        headers: req.headers,
        body: parseBody(raw),
        rawBody: raw,
        receivedAt: Date.now(),
      };
      requests.push(request);
      void respond(request, res);
    });
  });

  async function respond(request: FakeRequest, res: http.ServerResponse): Promise<void> {
    let reply: FakeReply;
    try {
      reply = await handler(request);
    } catch (error) {
      reply = { kind: "error", status: 500, message: `fake handler threw: ${(error as Error).message}` };
    }
    const record: ServedReply = { request, reply, delivered: false };
    served.push(record);
    res.on("finish", () => {
      record.delivered = true;
    });
    if (reply.kind === "hang") return;
    if (reply.kind === "reset") {
      res.socket?.destroy();
      return;
    }
    if ("delayMs" in reply && reply.delayMs) {
      await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    }
    if (res.destroyed || res.writableEnded) return;
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    switch (reply.kind) {
      case "ok":
        return send(200, completionBody(reply, request));
      case "error":
        return send(
          reply.status,
          {
            error: {
              message: reply.message,
              type: reply.type ?? "error",
              param: reply.param ?? null,
              code: reply.code ?? null,
            },
          },
          reply.headers,
        );
      case "json":
        return send(reply.status ?? 200, reply.body, reply.headers);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    served,
    inFlight: () => open,
    maxInFlight: () => peak,
    close: () =>
      new Promise<void>((resolve) => {
        // Hanging requests hold their sockets open; close() alone would wait for them forever.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A fake endpoint and an LLM client pointed at it, with a fast backoff: what most openai-backend tests start
 * with. The caller closes `server` after its test.
 */
export async function fakeLlm(
  handler: FakeHandler,
  options: Partial<Omit<LlmClientOptions, "baseURL">> & { model: string },
): Promise<{ server: FakeOpenAI; llm: LlmClient }> {
  const server = await startFakeOpenAI(handler);
  const llm = createLlmClient({
    timeoutMs: 2_000,
    maxRetries: 1,
    concurrency: 4,
    backoff: { baseMs: 5, maxMs: 20, retryAfterCapMs: 100 },
    ...options,
    baseURL: server.url,
  });
  return { server, llm };
}
