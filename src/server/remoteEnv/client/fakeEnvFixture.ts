/**
 * A small deterministic text environment served on 127.0.0.1 in each of the wire shapes the clients speak
 * (OpenEnv over WebSocket and HTTP, AgentGym's generic, WebShop and ALFWorld servers), with faults a test can
 * inject: a 500, a hang, a dropped connection, a reply that is not JSON or lacks its fields, a restart that loses
 * every session, a replay that goes elsewhere. It counts what a test asserts server-side: sessions open at once,
 * resets, steps, and the authorization headers it saw.
 *
 * The game: on track n the agent stands at 0; "forward" moves it one on, "finish" ends the episode with reward 1
 * at position 2 or more (0 before); anything else is invalid and changes nothing.
 */
import http from "node:http";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";
import { onOwnPort } from "../../../../tests/helpers/ownPort";

export type FaultKind = "500" | "hang" | "drop" | "badJson" | "missing";
/** Which request a fault hits: the route's last segment ("create", "reset", "step", "observation", ...). */
export interface Fault {
  on: string;
  kind: FaultKind;
}

interface Play {
  task: number;
  pos: number;
  done: boolean;
}

export const GAME_ACTIONS = ["forward", "finish"];

export class FakeEnvServer {
  url = "";
  port = 0;
  /** Pending faults, each used once by the first request it matches. */
  faults: Fault[] = [];
  /** Bumped to make the game's texts change: a replay then goes elsewhere. */
  variant = 0;
  /** How long every request and message takes to be answered. */
  delayMs = 0;
  /** The token every request must carry as `Authorization: Bearer`, when set. */
  token: string | undefined;
  readonly seen = { resets: [] as number[], steps: 0, creates: 0, authorization: [] as string[], maxOpen: 0 };
  private readonly sessions = new Map<string, Play | null>();
  private nextId = 0;
  private server: http.Server | undefined;
  private wss: WebSocketServer | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly hung = new Set<http.ServerResponse>();

  get open(): number {
    return this.sessions.size;
  }

  text(play: Play): string {
    return `track ${play.task}: you stand at ${play.pos}${this.variant ? ` (variant ${this.variant})` : ""}`;
  }

  instruction(task: number): string {
    return `Walk to position 2 on track ${task}, then finish.`;
  }

  /** Serves over TLS (https, wss) with this key and certificate when given. */
  tls: { key: string; cert: string } | undefined;

  async start(port = 0): Promise<void> {
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => void this.handle(req, res);
    const server = this.tls ? https.createServer(this.tls, handler) : http.createServer(handler);
    const wss = new WebSocketServer({ noServer: true });
    server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    server.on("upgrade", (req, socket, head) => {
      if (!this.authorized(req.headers.authorization)) {
        socket.end(
          'HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\n\r\n{"detail":"bad token"}',
        );
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => this.serveWs(ws));
    });
    await listenOutsideEphemeral(server, port);
    this.server = server;
    this.wss = wss;
    this.port = (server.address() as AddressInfo).port;
    this.url = `${this.tls ? "https" : "http"}://127.0.0.1:${this.port}`;
  }

  /** Like kill -9 and a restart: every connection cut, every session forgotten, the port closed for `downMs`. */
  async restart(downMs: number): Promise<void> {
    await this.stop();
    this.sessions.clear();
    await new Promise((r) => setTimeout(r, downMs));
    await this.start(this.port);
  }

  async stop(): Promise<void> {
    for (const res of this.hung) res.destroy();
    this.hung.clear();
    for (const ws of this.wss?.clients ?? []) ws.terminate();
    this.wss?.close();
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private authorized(header: string | undefined): boolean {
    this.seen.authorization.push(header ?? "");
    return this.token === undefined || header === `Bearer ${this.token}`;
  }

  private takeFault(on: string): FaultKind | undefined {
    const at = this.faults.findIndex((f) => f.on === on);
    if (at < 0) return undefined;
    return this.faults.splice(at, 1)[0]?.kind;
  }

  openSession(play: Play | null = null): string {
    const id = String(this.nextId++);
    this.seen.creates++;
    this.sessions.set(id, play);
    this.seen.maxOpen = Math.max(this.seen.maxOpen, this.sessions.size);
    return id;
  }

  closeSession(id: string): void {
    this.sessions.delete(id);
  }

  /** OpenEnv's HTTP episodes are named by the client (`episode_id`); each reset opens one, done or idle never closes. */
  openNamed(id: string): void {
    this.sessions.set(id, null);
  }

  play(id: string): Play | undefined {
    return this.sessions.get(id) ?? undefined;
  }

  /** The game's rules; undefined for a session this server does not know. */
  reset(id: string, task: number): Play | undefined {
    if (!this.sessions.has(id)) return undefined;
    const play = { task, pos: 0, done: false };
    this.sessions.set(id, play);
    this.seen.resets.push(task);
    return play;
  }

  step(id: string, action: string): { play: Play; reward: number; valid: boolean } | undefined {
    const play = this.sessions.get(id);
    if (!play) return undefined;
    this.seen.steps++;
    if (action === "forward") play.pos++;
    else if (action === "finish") play.done = true;
    else return { play, reward: 0, valid: false };
    return { play, reward: action === "finish" && play.pos >= 2 ? 1 : 0, valid: true };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    if (!this.authorized(req.headers.authorization)) return send(res, 401, { detail: "bad token" });
    const url = new URL(req.url ?? "/", "http://x");
    const [, shape = "", route = ""] = url.pathname.split("/");
    const fault = this.takeFault(route);
    if (fault === "hang") {
      this.hung.add(res);
      return;
    }
    if (fault === "drop") return void req.socket.destroy();
    if (fault === "500") return send(res, 500, { detail: "Internal Server Error" });
    if (fault === "badJson") return sendRaw(res, 200, "{not json");
    if (fault === "missing") return send(res, 200, {});
    const text = Buffer.concat(chunks).toString();
    const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    const id = String(
      url.searchParams.get("id") ?? url.searchParams.get("env_idx") ?? body.id ?? body.env_idx,
    );
    const reply = ROUTES[shape]?.(this, route, req.method ?? "GET", body, id);
    if (reply === undefined) return send(res, 404, { detail: "Not Found" });
    send(res, reply.status ?? 200, reply.body);
  }

  private serveWs(ws: WebSocket): void {
    const id = this.openSession();
    ws.on("close", () => this.closeSession(id));
    ws.on("message", async (raw) => {
      if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
      const message = JSON.parse(raw.toString()) as { type: string; data?: Record<string, unknown> };
      const fault = this.takeFault(message.type);
      if (fault === "hang") return;
      if (fault === "drop") return ws.terminate();
      if (fault === "500")
        return ws.send(JSON.stringify({ type: "error", data: { code: "EXECUTION_ERROR", message: "boom" } }));
      if (fault === "badJson") return ws.send("{not json");
      if (fault === "missing") return ws.send(JSON.stringify({ type: "observation", data: {} }));
      if (message.type === "close") return ws.close();
      const reply = openenvReply(this, id, message.type, message.data ?? {});
      ws.send(
        JSON.stringify(
          reply.status === 200
            ? { type: "observation", data: reply.body }
            : { type: "error", data: reply.body },
        ),
      );
    });
  }
}

type Reply = { status?: number; body: unknown } | undefined;
type Route = (
  s: FakeEnvServer,
  route: string,
  method: string,
  body: Record<string, unknown>,
  id: string,
) => Reply;

function send(res: http.ServerResponse, status: number, body: unknown): void {
  sendRaw(res, status, JSON.stringify(body));
}

function sendRaw(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(text);
}

function openenvObservation(s: FakeEnvServer, play: Play, reward: number | null, valid = true) {
  return {
    observation: {
      text: s.text(play),
      available_actions: play.done ? [] : GAME_ACTIONS,
      instruction: s.instruction(play.task),
      valid,
      success: play.done && reward === 1,
    },
    reward,
    done: play.done,
  };
}

/** OpenEnv's reset and step for one session, as a status and the observation's serialisation (or an error). */
function openenvReply(s: FakeEnvServer, id: string, type: string, data: Record<string, unknown>) {
  if (type === "reset") {
    const play = s.reset(id, Number(data.seed));
    return play
      ? { status: 200, body: openenvObservation(s, play, null) }
      : { status: 404, body: { code: "SESSION_ERROR" } };
  }
  const r = s.step(id, String(data.action));
  return r
    ? { status: 200, body: openenvObservation(s, r.play, r.reward, r.valid) }
    : { status: 404, body: { code: "UNKNOWN_EPISODE", message: "unknown" } };
}

/** Routes per shape: /openenv (HTTP), /agentgym (generic), /webshop, /alfworld. */
const ROUTES: Record<string, Route> = {
  openenv(s, route, method, body) {
    if (route === "health") return { body: { status: "healthy" } };
    const episode = String(body.episode_id);
    if (route === "reset") {
      s.openNamed(episode);
      return openenvReply(s, episode, "reset", body);
    }
    if (route === "step" && method === "POST") {
      const action = (body.action as { action?: unknown } | undefined)?.action;
      return openenvReply(s, episode, "step", { action });
    }
    return undefined;
  },
  agentgym(s, route, _method, body, id) {
    if (route === "") return { body: "This is environment Fake." };
    if (route === "create") return { body: { id: Number(s.openSession()) } };
    if (route === "close") {
      s.closeSession(id);
      return { body: true };
    }
    if (route === "available_actions") return { body: GAME_ACTIONS };
    if (route === "reset") {
      const play = s.reset(id, Number(body.data_idx));
      return {
        body: play ? { observation: s.text(play), reward: 0, done: false } : { error: `KeyError: ${id}` },
      };
    }
    if (route === "step") {
      const r = s.step(id, String(body.action));
      return {
        body: r
          ? { observation: s.text(r.play), reward: r.reward, done: r.play.done }
          : { error: `KeyError: ${id}` },
      };
    }
    return undefined;
  },
  webshop(s, route, _method, body, id) {
    if (route === "") return { body: "ok" };
    if (route === "create") return { body: Number(s.openSession()) };
    if (route === "close") {
      s.closeSession(id);
      return { body: { closed: true } };
    }
    const play = s.play(id);
    if (route === "reset")
      return s.reset(id, Number(body.session_id))
        ? { body: ["ignored", null] }
        : { status: 500, body: "KeyError" };
    if (route === "step") {
      const r = s.step(id, String(body.action).replace(/^click\[(.*)\]$/, "$1"));
      return r
        ? { body: { state: s.text(r.play), reward: r.reward, done: r.play.done, info: null } }
        : { status: 500, body: "KeyError" };
    }
    if (!play) return { status: 500, body: "KeyError" };
    if (route === "observation") return { body: s.text(play) };
    if (route === "instruction_text") return { body: `Instruction: ${s.instruction(play.task)}` };
    if (route === "available_actions") return { body: { has_search_bar: false, clickables: GAME_ACTIONS } };
    return undefined;
  },
  alfworld(s, route, _method, body, id) {
    if (route === "") return { body: "This is environment AlfWorld." };
    if (route === "create") return { body: { id: Number(s.openSession()) } };
    if (route === "reset") {
      const play = s.reset(id, Number(body.game));
      if (!play) return { body: { error: `KeyError: ${id}` } };
      const intro = `-= Welcome =-\n${s.text(play)}\n\nYour task is to: ${s.instruction(play.task)}`;
      return {
        body: { id: Number(id), observation: intro, available_actions: GAME_ACTIONS, task_type: "walk" },
      };
    }
    if (route === "step") {
      const r = s.step(id, String(body.action));
      if (!r) return { body: { error: `KeyError: ${id}` } };
      return {
        body: {
          observation: s.text(r.play),
          reward: r.reward,
          available_actions: GAME_ACTIONS,
          done: r.play.done,
        },
      };
    }
    return undefined;
  },
};

function listenOn(server: http.Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    server.once("error", failed);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", failed);
      resolve();
    });
  });
}

/** A port of its own unless given one, so that `restart` gets it back (see `onOwnPort`). */
function listenOutsideEphemeral(server: http.Server, port: number): Promise<void> {
  return port === 0 ? onOwnPort((own) => listenOn(server, own)) : listenOn(server, port);
}

export async function startFakeEnv(tls?: { key: string; cert: string }): Promise<FakeEnvServer> {
  const fake = new FakeEnvServer();
  fake.tls = tls;
  await fake.start();
  return fake;
}
