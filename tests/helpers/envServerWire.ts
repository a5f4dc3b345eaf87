/**
 * The environment server's wire as its clients see it, for tests: HTTP calls that keep the raw answer text (how a
 * Python client would parse it), and a WebSocket session that answers one message at a time.
 */
import WebSocket from "ws";

export interface Answer {
  status: number;
  /** The body as sent: the tests read number formats (0.0 or 0) from it. */
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads whatever shape the route answers
  json: any;
}

export async function call(
  base: string,
  method: "GET" | "POST",
  route: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: the test reads the text
  }
  return { status: res.status, text, json };
}

/** An OpenEnv WebSocket session: `send` a message, `next` the next reply (raw text kept). */
export class WsSession {
  private readonly replies: string[] = [];
  private readonly waiting: Array<(text: string) => void> = [];
  closed = false;

  private constructor(readonly ws: WebSocket) {
    ws.on("message", (raw) => {
      const text = raw.toString();
      const waiter = this.waiting.shift();
      if (waiter) waiter(text);
      else this.replies.push(text);
    });
    ws.on("close", () => {
      this.closed = true;
    });
  }

  static open(base: string, path = "/ws", headers: Record<string, string> = {}): Promise<WsSession> {
    const ws = new WebSocket(`${base.replace(/^http/, "ws")}${path}`, { headers });
    return new Promise((resolve, reject) => {
      ws.once("open", () => resolve(new WsSession(ws)));
      ws.once("error", reject);
    });
  }

  send(message: unknown): void {
    this.ws.send(typeof message === "string" ? message : JSON.stringify(message));
  }

  // biome-ignore lint/suspicious/noExplicitAny: a test reads whatever shape the reply has
  async next(): Promise<{ text: string; json: any }> {
    const text = this.replies.shift() ?? (await new Promise<string>((resolve) => this.waiting.push(resolve)));
    return { text, json: JSON.parse(text) };
  }

  // biome-ignore lint/suspicious/noExplicitAny: a test reads whatever shape the reply has
  async ask(message: unknown): Promise<{ text: string; json: any }> {
    this.send(message);
    return this.next();
  }

  close(): void {
    this.ws.close();
  }
}
