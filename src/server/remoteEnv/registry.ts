/**
 * Which remote environments are domains: those registered in the store (from the UI or the CLI) and those the
 * config file names (`remoteDomains`). A registration is checked against the environment before it is kept, and
 * its token is stored for requests but never handed back.
 */
import { isRealDomainName } from "@/core/envs/names";
import {
  REMOTE_PROTOCOL_LABELS,
  type RemoteEnvSpec,
  RemoteEnvSpec as RemoteEnvSpecSchema,
} from "@/core/envs/remote/spec";
import { config as appConfig } from "@/env";
import type { Db } from "../db";
import { checkHealth, type HealthReport } from "./client";

export interface RemoteDomainInfo {
  name: string;
  url: string;
  protocol: RemoteEnvSpec["protocol"];
  protocolLabel: string;
  /** Registered from the UI or the CLI (removable there), or named by the config file. */
  source: "registered" | "config";
  hasToken: boolean;
  concurrency: number;
  maxSteps: number;
  tasks: RemoteEnvSpec["tasks"];
  health: { ok: boolean; message: string; at: Date } | null;
}

/** A registration that cannot be kept, with what is wrong and where. */
export class RegistrationError extends Error {
  override readonly name = "RegistrationError";
}

function fromConfig(name?: string): RemoteEnvSpec[] {
  const all = appConfig().remoteDomains;
  return name === undefined ? all : all.filter((s) => s.name === name);
}

function info(spec: RemoteEnvSpec, source: RemoteDomainInfo["source"], health: RemoteDomainInfo["health"]) {
  return {
    name: spec.name,
    url: spec.url,
    protocol: spec.protocol,
    protocolLabel: REMOTE_PROTOCOL_LABELS[spec.protocol],
    source,
    hasToken: spec.token !== undefined,
    concurrency: spec.concurrency,
    maxSteps: spec.maxSteps,
    tasks: spec.tasks,
    health,
  } satisfies RemoteDomainInfo;
}

type Row = {
  name: string;
  spec: unknown;
  token: string | null;
  healthOk: boolean | null;
  healthMessage: string | null;
  healthAt: Date | null;
};

/** A stored registration, read back through the schema (a row written by an older version gets its defaults). */
function rowSpec(row: Row): RemoteEnvSpec {
  const parsed = RemoteEnvSpecSchema.safeParse({
    ...(row.spec as object),
    name: row.name,
    ...(row.token ? { token: row.token } : {}),
  });
  if (!parsed.success)
    throw new Error(
      `the stored registration of remote domain "${row.name}" is invalid: ${parsed.error.message}`,
    );
  return parsed.data;
}

function rowHealth(row: Row): RemoteDomainInfo["health"] {
  return row.healthOk === null || row.healthAt === null
    ? null
    : { ok: row.healthOk, message: row.healthMessage ?? "", at: row.healthAt };
}

export async function listRemoteDomains(db: Db): Promise<RemoteDomainInfo[]> {
  const rows = (await db.remoteDomain.findMany({ orderBy: { name: "asc" } })) as Row[];
  const configured = fromConfig();
  const names = new Set(configured.map((s) => s.name));
  return [
    ...configured.map((spec) => info(spec, "config", null)),
    ...rows.filter((r) => !names.has(r.name)).map((r) => info(rowSpec(r), "registered", rowHealth(r))),
  ].sort((a, b) => a.name.localeCompare(b.name));
}

/** The registration with its token (for requests to the environment), or null when no remote domain has the name. */
export async function remoteSpec(db: Db, name: string): Promise<RemoteEnvSpec | null> {
  const [configured] = fromConfig(name);
  if (configured) return configured;
  const row = (await db.remoteDomain.findUnique({ where: { name } })) as Row | null;
  return row ? rowSpec(row) : null;
}

export async function isRemoteDomain(db: Db, name: string): Promise<boolean> {
  return (await remoteSpec(db, name)) !== null;
}

export interface RegisterOptions {
  createdBy?: string;
  /** Keep it even when the environment does not answer now (it is checked again before each run). */
  allowUnhealthy?: boolean;
  /** Replace an existing registration of the name. */
  replace?: boolean;
  check?: (spec: RemoteEnvSpec) => Promise<HealthReport>;
}

/**
 * Registers a remote environment as a domain: the input is validated (every problem named by its field), the name
 * must be free (not built in, not in the config file, not registered unless `replace`), and the environment must
 * answer its health check and reset train task 0 (unless `allowUnhealthy`). Nothing is stored when any fails.
 */
export async function registerRemoteDomain(
  db: Db,
  input: unknown,
  options: RegisterOptions = {},
): Promise<{ domain: RemoteDomainInfo; health: HealthReport }> {
  const parsed = RemoteEnvSpecSchema.safeParse(input);
  if (!parsed.success)
    throw new RegistrationError(
      `invalid remote domain: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(registration)"}: ${i.message}`).join("; ")}`,
    );
  const spec = parsed.data;
  if (isRealDomainName(spec.name))
    throw new RegistrationError(`"${spec.name}" is a built-in domain; choose another name`);
  if (fromConfig(spec.name).length > 0)
    throw new RegistrationError(
      `"${spec.name}" is registered by the config file (remoteDomains); change it there`,
    );
  const existing = await db.remoteDomain.findUnique({ where: { name: spec.name }, select: { name: true } });
  if (existing && !options.replace)
    throw new RegistrationError(
      `remote domain "${spec.name}" is registered already (remove it first, or replace it)`,
    );
  const health = await (options.check ?? checkHealth)(spec);
  if (!health.ok && !options.allowUnhealthy)
    throw new RegistrationError(
      `remote domain "${spec.name}" at ${spec.url} failed its check: ${health.message}`,
    );
  const { token, name, ...rest } = spec;
  const row = {
    spec: rest as object,
    token: token ?? null,
    healthOk: health.ok,
    healthMessage: health.message,
    healthAt: new Date(),
  };
  await db.remoteDomain.upsert({
    where: { name },
    create: { name, ...row, createdBy: options.createdBy ?? null },
    update: row,
  });
  return {
    domain: info(spec, "registered", { ok: health.ok, message: health.message, at: row.healthAt }),
    health,
  };
}

/** Checks a remote domain's environment now and keeps the answer with a registered one. */
export async function checkRemoteDomain(
  db: Db,
  name: string,
  check: (spec: RemoteEnvSpec) => Promise<HealthReport> = checkHealth,
): Promise<HealthReport> {
  const spec = await remoteSpec(db, name);
  if (!spec) throw new RegistrationError(`no remote domain is named "${name}"`);
  const health = await check(spec);
  if (fromConfig(name).length === 0)
    await db.remoteDomain.update({
      where: { name },
      data: { healthOk: health.ok, healthMessage: health.message, healthAt: new Date() },
    });
  return health;
}

/**
 * Removes a registration. Its tasks, and the runs and trajectories recorded in it, stay (delete runs to remove
 * those); a run that is queued or running on it refuses the removal.
 */
export async function removeRemoteDomain(db: Db, name: string): Promise<void> {
  if (fromConfig(name).length > 0)
    throw new RegistrationError(
      `"${name}" is registered by the config file (remoteDomains); remove it there`,
    );
  const row = await db.remoteDomain.findUnique({ where: { name }, select: { name: true } });
  if (!row) throw new RegistrationError(`no remote domain is named "${name}"`);
  const using = await db.run.findMany({
    where: { domain: name, status: { in: ["queued", "running"] } },
    select: { name: true },
  });
  if (using.length > 0)
    throw new RegistrationError(
      `remote domain "${name}" is in use by ${using.length} queued or running run(s) (${using.map((r) => r.name).join(", ")}): cancel them first`,
    );
  await db.remoteDomain.delete({ where: { name } });
}
