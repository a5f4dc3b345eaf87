/**
 * The environment server: DreamGym's real and synthetic environments for trainers outside it, over OpenEnv
 * (WebSocket /ws, and HTTP), AgentGym's shapes (/agentgym/…) and the external-run API (/runs). See README
 * "Train an LLM agent with verl or TRL against DreamGym".
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { LRUCache } from "lru-cache";
import { WebSocketServer } from "ws";
import { can } from "../auth/access";
import { authFor } from "../auth/auth";
import { signedInUser } from "../auth/session";
import type { Db } from "../db";
import { AgentGymIds, handleAgentGym } from "./agentgymRoutes";
import { callerOf } from "./callers";
import { EnvServerError, errorData } from "./errors";
import { authorize, type SessionCheck, sendError } from "./http";
import { handleOpenenvHttp, handleRunsApi, openenvRoute } from "./openenvRoutes";
import { serveOpenenvWs } from "./openenvWs";
import { EnvService, type ServiceOptions } from "./service";

export interface EnvServerOptions extends Partial<ServiceOptions> {
  host?: string;
  port?: number;
  /** Required from clients not on this machine (Authorization: Bearer <token>). */
  token?: string;
  /** How a user's bearer token is checked; unset: against the database's sessions (Better Auth). */
  session?: SessionCheck;
  /** How often recorded steps go into LanceDB; 0: only when a run is finished. */
  indexEveryMs?: number;
  /**
   * Seeds the demo data (offline data for the synthetic environments) before serving when the database holds no
   * trajectory yet, as `npm start` and `npm run cli -- seed` do: an episode played first would make the database
   * look seeded to them, and the synthetic environments would have no replay buffer.
   */
  seedIfEmpty?: boolean;
  log?: (line: string) => void;
}

export interface EnvServer {
  url: string;
  port: number;
  service: EnvService;
  close(): Promise<void>;
}

export const ENV_SERVER_DEFAULTS = { host: "127.0.0.1", port: 8300, maxSessions: 256, idleMs: 300_000 };

/**
 * How long a checked session token is trusted without asking the database again. A trainer sends its token with
 * every step; a revoked session or a changed role takes effect within this time.
 */
const SESSION_CHECK_TTL_MS = 30_000;

/** A bearer token checked as a Better Auth session of this database: the person's role, and whether it may train. */
function sessionCheck(db: Db): SessionCheck {
  const checked = new LRUCache<string, { role: string; allowed: boolean } | "none">({
    max: 1_000,
    ttl: SESSION_CHECK_TTL_MS,
  });
  return async (authorization) => {
    const known = checked.get(authorization);
    if (known !== undefined) return known === "none" ? null : known;
    const user = await signedInUser(new Headers({ authorization }), authFor(db));
    const answer = user ? { role: user.role, allowed: can(user.role, { environment: ["train"] }) } : null;
    checked.set(authorization, answer ?? "none");
    return answer;
  };
}

export async function startEnvServer(db: Db, options: EnvServerOptions = {}): Promise<EnvServer> {
  const service = new EnvService(db, {
    maxSessions: options.maxSessions ?? ENV_SERVER_DEFAULTS.maxSessions,
    idleMs: options.idleMs ?? ENV_SERVER_DEFAULTS.idleMs,
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
    ...(options.flushMs !== undefined ? { flushMs: options.flushMs } : {}),
    ...(options.figuresMs !== undefined ? { figuresMs: options.figuresMs } : {}),
    ...(options.databaseUrl !== undefined ? { databaseUrl: options.databaseUrl } : {}),
    ...(options.maxSessionsPerClient !== undefined
      ? { maxSessionsPerClient: options.maxSessionsPerClient }
      : {}),
  });
  if (options.seedIfEmpty) {
    const { seedDemoIfEmpty } = await import("../demo/seedDemo");
    await seedDemoIfEmpty(db, options.log);
  }
  await service.watchStale();
  const indexEvery = options.indexEveryMs ?? 30_000;
  if (indexEvery > 0) service.startIndexing(indexEvery);
  const agentgym = { webshop: new AgentGymIds(), alfworld: new AgentGymIds() };
  const session = options.session ?? sessionCheck(db);

  const server = http.createServer((req, res) => {
    void (async () => {
      try {
        await authorize(req.socket.remoteAddress, req.headers.authorization, options.token, session);
        const url = new URL(req.url ?? "/", "http://localhost");
        const client = callerOf(req);
        if (await handleRunsApi(service, req, res, url.pathname)) return;
        if (await handleAgentGym(service, agentgym, req, res, url, client)) return;
        const openenv = openenvRoute(url.pathname);
        if (openenv && (await handleOpenenvHttp({ service, req, res, url, client, ...openenv }))) return;
        throw new EnvServerError("NOT_FOUND", `no route ${req.method} ${url.pathname}`);
      } catch (error) {
        sendError(res, error);
      }
    })();
  });
  // Many short requests from trainers: keep connections open, answer small writes at once.
  server.keepAliveTimeout = 65_000;
  server.on("connection", (socket) => socket.setNoDelay(true));

  const wss = new WebSocketServer({ noServer: true, maxPayload: 1_000_000 });
  server.on("upgrade", (req, socket, head) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const openenv = openenvRoute(url.pathname);
    const refuse = (status: number, body: unknown) => {
      socket.end(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: application/json\r\n\r\n${JSON.stringify(body)}`,
      );
    };
    void (async () => {
      try {
        await authorize(req.socket.remoteAddress, req.headers.authorization, options.token, session);
      } catch (error) {
        refuse(error instanceof EnvServerError ? error.status : 401, {
          type: "error",
          data: errorData(error),
        });
        return;
      }
      const defaults = openenv?.route === "/ws" ? openenv.defaults : undefined;
      if (!defaults) {
        refuse(404, {
          type: "error",
          data: { message: `no WebSocket at ${url.pathname}`, code: "NOT_FOUND" },
        });
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => serveOpenenvWs(service, ws, defaults, callerOf(req)));
    })();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(
      options.port ?? ENV_SERVER_DEFAULTS.port,
      options.host ?? ENV_SERVER_DEFAULTS.host,
      resolve,
    );
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    service,
    async close() {
      await service.shutdown();
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
