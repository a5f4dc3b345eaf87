/**
 * A WebSocket to a remote environment used as request and reply: one message out, the next message back, within a
 * deadline. An episode asks one thing at a time, so one pending request is all there is.
 */
import WebSocket from "ws";
import type { RemoteEnvSpec } from "@/core/envs/remote/spec";
import { excerpt, kindOfStatus, RequestFailure } from "./failure";
import { authHeaders, networkDetail, wsBase } from "./http";

interface Pending {
  resolve: (json: unknown) => void;
  reject: (failure: RequestFailure) => void;
  timer: NodeJS.Timeout;
}

/** How long a closing socket may take to say goodbye before it is cut. */
const CLOSE_GRACE_MS = 1_000;

export class WsPeer {
  private pending: Pending | undefined;
  /** Why the socket can no longer be used, once it cannot. */
  private gone: RequestFailure | undefined;

  private constructor(
    private readonly ws: WebSocket,
    readonly where: string,
  ) {
    ws.on("message", (raw) => this.receive(raw.toString()));
    ws.on("close", (code, reason) =>
      this.fail(
        new RequestFailure(
          "unavailable",
          this.where,
          `connection closed (code ${code}${reason.length ? `: ${excerpt(reason.toString())}` : ""})`,
        ),
      ),
    );
    ws.on("error", (error) =>
      this.fail(new RequestFailure("unavailable", this.where, networkDetail(error, 0))),
    );
  }

  /** Opens `<url>/ws` with the bearer token on the upgrade; a refused upgrade says its status and body. */
  static connect(spec: RemoteEnvSpec, timeoutMs: number): Promise<WsPeer> {
    const url = `${wsBase(spec.url)}/ws`;
    const shown = new URL(url);
    // Failures are logged and shown: never with credentials someone put in the URL.
    const where = `WebSocket ${shown.origin}${shown.pathname}`;
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers: authHeaders(spec), handshakeTimeout: timeoutMs });
      const timer = setTimeout(() => {
        ws.terminate();
        reject(new RequestFailure("unavailable", where, `no connection within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        ws.removeAllListeners();
        // An error after the outcome is decided (a terminated handshake) must not go unheard and crash the process.
        ws.on("error", () => {});
      };
      ws.once("open", () => {
        done();
        resolve(new WsPeer(ws, where));
      });
      ws.once("unexpected-response", (_req, res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on("end", () => {
          done();
          ws.terminate();
          const status = res.statusCode ?? 0;
          reject(
            new RequestFailure(
              kindOfStatus(status, false),
              where,
              `HTTP ${status} on upgrade${body ? `: ${excerpt(body)}` : ""}`,
              status,
            ),
          );
        });
      });
      ws.once("error", (error) => {
        done();
        ws.terminate();
        reject(new RequestFailure("unavailable", where, networkDetail(error, timeoutMs)));
      });
    });
  }

  /** Sends `message` and resolves with the next message, parsed as JSON; `label` names it in failures ("reset"). */
  request(message: unknown, timeoutMs: number, label: string): Promise<unknown> {
    const what = `${this.where} ${label}`;
    const failure = (f: RequestFailure) => new RequestFailure(f.kind, what, f.detail, f.status);
    if (this.gone) return Promise.reject(failure(this.gone));
    if (this.pending) return Promise.reject(new RequestFailure("refused", what, "a request is in flight"));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending = undefined;
        // A reply that comes after its deadline would answer the next request: the socket is done for.
        const late = new RequestFailure("unavailable", what, `no answer within ${timeoutMs} ms`);
        this.fail(late);
        reject(late);
        this.ws.terminate();
      }, timeoutMs);
      this.pending = { resolve, reject: (f) => reject(failure(f)), timer };
      this.ws.send(JSON.stringify(message), (error) => {
        if (error) this.fail(new RequestFailure("unavailable", this.where, networkDetail(error, timeoutMs)));
      });
    });
  }

  /** Sends OpenEnv's close message, then closes; cut after a grace period so a dead peer cannot hold us. */
  async close(goodbye?: unknown): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    const closed = new Promise<void>((resolve) => this.ws.once("close", () => resolve()));
    if (goodbye !== undefined && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(goodbye));
    this.ws.close(1000, "episode over");
    const timer = setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS);
    await closed;
    clearTimeout(timer);
  }

  private receive(text: string): void {
    const pending = this.pending;
    if (!pending) return; // an unsolicited message (e.g. an idle notice); the close that follows says enough
    this.pending = undefined;
    clearTimeout(pending.timer);
    try {
      pending.resolve(JSON.parse(text));
    } catch {
      pending.reject(
        new RequestFailure("malformed", this.where, `message is not JSON: ${excerpt(text) || "(empty)"}`),
      );
    }
  }

  private fail(failure: RequestFailure): void {
    this.gone ??= failure;
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    clearTimeout(pending.timer);
    pending.reject(failure);
  }
}
