import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { BACKENDS } from "@/core/backends";
import { RemoteEnvSpec } from "@/core/envs/remote/spec";
import { databaseUrl, databaseUrlProblem } from "./database";
import { listFromEnv, Origin, ProxyAddress } from "./trust";

/**
 * Validated configuration: environment variables override an optional JSON config file
 * (DREAMGYM_CONFIG, default ./dreamgym.config.json), which overrides the embedded defaults. Every default runs
 * offline with no key.
 */
const OpenAISettings = z.object({
  baseURL: z.string().url().optional(),
  apiKey: z.string().optional(),
  timeoutMs: z.number().int().positive().default(60_000),
  maxRetries: z.number().int().min(0).max(10).default(3),
  /** Wait before the first retry, doubled on each further one (jittered); unset: 500 ms. A server's Retry-After wins. */
  backoffMs: z.number().int().min(0).max(60_000).optional(),
  concurrency: z.number().int().positive().max(256).default(8),
  /** Vector size of the embedding model, for models whose size is not known in advance (else one probe request). */
  embeddingDimensions: z.number().int().positive().optional(),
  models: z
    .object({
      experience: z.string().default("gpt-4o-mini"),
      teacher: z.string().default("gpt-4o-mini"),
      taskGenerator: z.string().default("gpt-4o-mini"),
      judge: z.string().default("gpt-4o-mini"),
      policy: z.string().default("gpt-4o-mini"),
      embedding: z.string().default("text-embedding-3-small"),
    })
    .prefault({}),
});

const Backend = z.enum(BACKENDS);

export const ConfigSchema = z.object({
  dataDir: z.string().default("data"),
  databaseUrl: z
    .string()
    .min(1)
    .superRefine((url, ctx) => {
      const problem = databaseUrlProblem(url);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  /**
   * The replay buffer's LanceDB location, one for every process that shares the database: a folder (on shared
   * storage when processes run on several machines) or an object-store URI LanceDB supports (s3://, gs://, az://),
   * handed to LanceDB's connect untouched.
   */
  lancedbDir: z.string().min(1),
  port: z.number().int().min(1).max(65535).default(3000),
  /**
   * The address the web app listens on. Loopback by default, so that a fresh start with its printed admin password
   * and demo users is reachable only from this machine until someone chooses otherwise (HOST=0.0.0.0).
   */
  host: z.string().min(1).default("127.0.0.1"),
  backends: z
    .object({
      experience: Backend.default("embedded"),
      teacher: Backend.default("embedded"),
      taskGenerator: Backend.default("embedded"),
      judge: Backend.default("embedded"),
      policy: Backend.default("embedded"),
      embedding: Backend.default("embedded"),
    })
    .prefault({}),
  openai: OpenAISettings.prefault({}),
  worker: z
    .object({
      loops: z.number().int().min(1).max(16).default(1),
      leaseMs: z.number().int().min(1_000).default(30_000),
      heartbeatMs: z.number().int().min(100).default(5_000),
      pollMs: z.number().int().min(10).default(500),
      /**
       * Threads that run the embedded experience model's predictions beside the rollouts (DREAMGYM_THREADS).
       * Unset: one fewer than the machine's cores for a run that stores nothing (the CLI; 0 on one core:
       * predictions run inline), and none for the worker's train job, whose writer thread takes the other core.
       * Results do not depend on it.
       */
      threads: z.number().int().min(0).max(64).optional(),
      /**
       * Rollout threads (DREAMGYM_ROLLOUT_THREADS): threads that play whole synthetic episodes beside the main
       * thread's, where that is exact (built-in domain, embedded backends, offline-only retrieval); prediction
       * threads are then not used. Off by default: they speed up a run that stores nothing (the CLI: 691 → 938
       * transitions/s on 2 cores) but slowed the worker's storing train job (580 → 453). Results do not depend on it.
       */
      rolloutThreads: z.number().int().min(0).max(64).default(0),
    })
    .prefault({}),
  demo: z
    .object({
      seedOnEmpty: z.boolean().default(true),
      /** Demo users for the three working roles come with the demo data (DREAMGYM_DEMO_USERS=0: none). */
      users: z.boolean().default(true),
    })
    .prefault({}),
  /** Sign-in (src/server/auth). */
  auth: z
    .object({
      /** Signs session cookies (DREAMGYM_AUTH_SECRET); unset: one is made at first start and kept in the data folder. */
      secret: z.string().min(32, "the auth secret must be at least 32 characters").optional(),
      /** The address people reach the app at (DREAMGYM_URL); unset: http://HOST:PORT. */
      url: z.string().url().optional(),
      /**
       * Origins whose pages may change things with a session cookie besides the app's own (the host a request
       * came to, and DREAMGYM_URL): the names a proxy serves the app under (DREAMGYM_TRUSTED_ORIGINS,
       * comma-separated). Every other origin's requests are refused (src/server/auth/sameOrigin.ts).
       */
      trustedOrigins: z.array(Origin).default([]),
      /**
       * The proxies whose X-Forwarded-For (and -Proto, -Host) is believed: addresses or CIDR ranges
       * (DREAMGYM_TRUSTED_PROXIES, comma-separated). Unset, a request's client is the address its connection came
       * from, whatever its headers say; sign-in failures are counted per client (src/server/auth/signInThrottle.ts).
       */
      trustedProxies: z.array(ProxyAddress).default([]),
      /** The first admin (DREAMGYM_ADMIN_EMAIL / DREAMGYM_ADMIN_PASSWORD); unset: admin@dreamgym.local with a password printed once. */
      adminEmail: z.string().email().optional(),
      adminPassword: z.string().min(8, "the admin password must be at least 8 characters").optional(),
      /** An OIDC provider beside email and password, on when its discovery URL and client id are set. */
      oidc: z
        .object({
          discoveryUrl: z.string().url(),
          clientId: z.string().min(1),
          clientSecret: z.string().optional(),
          /** The button's label: "Sign in with …". */
          name: z.string().default("SSO"),
          scopes: z.array(z.string()).default(["openid", "profile", "email"]),
        })
        .optional(),
    })
    .prefault({}),
  /** The environment server for external trainers (`npm run env-server`, started by `npm start` too). */
  envServer: z
    .object({
      port: z.number().int().min(1).max(65535).default(8300),
      /** Its address; the web app's (HOST) when unset. */
      host: z.string().min(1).optional(),
      /** Sessions at once (WebSocket connections, HTTP episodes, AgentGym environments); more get CAPACITY_REACHED. */
      maxSessions: z.number().int().min(1).max(100_000).default(256),
      /** A session idle this long is freed and its episode recorded as abandoned. */
      idleSeconds: z.number().positive().max(86_400).default(300),
      /** The bearer token clients on other machines must send; without it, only this machine is served. */
      token: z.string().min(16, "the env server token must be at least 16 characters").optional(),
    })
    .prefault({}),
  /**
   * Real environments that run outside the app, as domains (src/core/envs/remote/spec.ts): registered here they
   * need no registration in the UI or the CLI, and cannot be removed there.
   */
  remoteDomains: z.array(RemoteEnvSpec).default([]),
});
export type Config = z.infer<typeof ConfigSchema>;

function readConfigFile(file: string | undefined): Record<string, unknown> {
  const explicit = file !== undefined;
  const target = path.resolve(/*turbopackIgnore: true*/ file ?? "dreamgym.config.json");
  if (!fs.existsSync(/*turbopackIgnore: true*/ target)) {
    if (explicit) throw new Error(`Config file ${target} (DREAMGYM_CONFIG) does not exist`);
    return {};
  }
  try {
    return JSON.parse(fs.readFileSync(/*turbopackIgnore: true*/ target, "utf8")) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`Config file ${target} is not valid JSON: ${(error as Error).message}`);
  }
}

function intFromEnv(env: Env, name: string): number | undefined {
  const value = env[name];
  return value === undefined || value === "" ? undefined : Number(value);
}

export type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const file = readConfigFile(env.DREAMGYM_CONFIG);
  const dataDir = env.DREAMGYM_DATA_DIR ?? (file.dataDir as string | undefined) ?? "data";
  const fileOpenAI = (file.openai ?? {}) as Record<string, unknown>;
  const fileWorker = (file.worker ?? {}) as Record<string, unknown>;
  const fileEnvServer = (file.envServer ?? {}) as Record<string, unknown>;
  const fileAuth = (file.auth ?? {}) as Record<string, unknown>;
  const merged = {
    ...file,
    dataDir,
    databaseUrl: env.DATABASE_URL ?? (file.databaseUrl as string | undefined) ?? databaseUrl(env, dataDir),
    lancedbDir: env.LANCEDB_DIR ?? (file.lancedbDir as string | undefined) ?? path.join(dataDir, "lancedb"),
    port: intFromEnv(env, "PORT") ?? file.port,
    host: env.HOST || (file.host as string | undefined),
    openai: {
      ...fileOpenAI,
      ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}),
      ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
    },
    envServer: {
      ...fileEnvServer,
      ...(intFromEnv(env, "ENV_SERVER_PORT") ? { port: intFromEnv(env, "ENV_SERVER_PORT") } : {}),
      ...(env.ENV_SERVER_HOST ? { host: env.ENV_SERVER_HOST } : {}),
      ...(intFromEnv(env, "ENV_SERVER_MAX_SESSIONS")
        ? { maxSessions: intFromEnv(env, "ENV_SERVER_MAX_SESSIONS") }
        : {}),
      ...(intFromEnv(env, "ENV_SERVER_IDLE_SECONDS")
        ? { idleSeconds: intFromEnv(env, "ENV_SERVER_IDLE_SECONDS") }
        : {}),
      ...(env.DREAMGYM_ENV_TOKEN ? { token: env.DREAMGYM_ENV_TOKEN } : {}),
    },
    demo: {
      ...((file.demo ?? {}) as Record<string, unknown>),
      ...(env.DREAMGYM_DEMO_USERS ? { users: env.DREAMGYM_DEMO_USERS !== "0" } : {}),
    },
    auth: {
      ...fileAuth,
      ...(env.DREAMGYM_AUTH_SECRET ? { secret: env.DREAMGYM_AUTH_SECRET } : {}),
      ...(env.DREAMGYM_URL ? { url: env.DREAMGYM_URL } : {}),
      ...(listFromEnv(env.DREAMGYM_TRUSTED_ORIGINS)
        ? { trustedOrigins: listFromEnv(env.DREAMGYM_TRUSTED_ORIGINS) }
        : {}),
      ...(listFromEnv(env.DREAMGYM_TRUSTED_PROXIES)
        ? { trustedProxies: listFromEnv(env.DREAMGYM_TRUSTED_PROXIES) }
        : {}),
      ...(env.DREAMGYM_ADMIN_EMAIL ? { adminEmail: env.DREAMGYM_ADMIN_EMAIL } : {}),
      ...(env.DREAMGYM_ADMIN_PASSWORD ? { adminPassword: env.DREAMGYM_ADMIN_PASSWORD } : {}),
      ...(env.OIDC_DISCOVERY_URL || env.OIDC_CLIENT_ID
        ? {
            oidc: {
              ...((fileAuth.oidc ?? {}) as Record<string, unknown>),
              ...(env.OIDC_DISCOVERY_URL ? { discoveryUrl: env.OIDC_DISCOVERY_URL } : {}),
              ...(env.OIDC_CLIENT_ID ? { clientId: env.OIDC_CLIENT_ID } : {}),
              ...(env.OIDC_CLIENT_SECRET ? { clientSecret: env.OIDC_CLIENT_SECRET } : {}),
              ...(env.OIDC_NAME ? { name: env.OIDC_NAME } : {}),
            },
          }
        : {}),
    },
    worker: {
      ...fileWorker,
      ...(intFromEnv(env, "WORKER_LOOPS") ? { loops: intFromEnv(env, "WORKER_LOOPS") } : {}),
      ...(intFromEnv(env, "DREAMGYM_THREADS") !== undefined
        ? { threads: intFromEnv(env, "DREAMGYM_THREADS") }
        : {}),
      ...(intFromEnv(env, "DREAMGYM_ROLLOUT_THREADS") !== undefined
        ? { rolloutThreads: intFromEnv(env, "DREAMGYM_ROLLOUT_THREADS") }
        : {}),
    },
  };
  const parsed = ConfigSchema.safeParse(merged);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join(".") || "(root)"}: ${i.message}`);
    throw new Error(`Invalid DreamGym configuration:\n${problems.join("\n")}`);
  }
  return parsed.data;
}

let cached: Config | undefined;
export function config(): Config {
  cached ??= loadConfig();
  return cached;
}
