/**
 * The real domain a name stands for, ready to play: a built-in one as it is, a remote one with the tasks a piece
 * of work will use asked of its environment first (remoteTasks.ts). Undefined for a name with no real environment
 * (an imported domain, or none).
 */
import type { RealDomain } from "@/core/envs/domain";
import { NotTrainableError } from "@/core/envs/imported/importedDomain";
import { getRealDomain, isRealDomain } from "@/core/envs/registry";
import type { Db } from "../db";
import { loadImportedDomain } from "../replay/importedDomain";
import { probeTask, RemoteEnvironment } from "./client";
import { remoteSpec } from "./registry";
import { type EnvironmentOpener, RemoteDomain } from "./remoteDomain";
import { prepareTasks, type TaskAddress, type TaskProber } from "./remoteTasks";

export interface LoadOptions {
  /** One line per retry or rebuild of a remote environment's requests. */
  log?: (line: string) => void;
  /** Tasks asked of the environment so far, while it prepares them. */
  onProgress?: (done: number, total: number) => void;
  /**
   * Learn candidate actions from the domain's imported logs (default true). Work that never chooses actions (the
   * writer thread's real answers) skips reading every log.
   */
  loggedActions?: boolean;
  /** Tests put fakes here. */
  open?: EnvironmentOpener;
  probe?: TaskProber;
}

export async function loadRealDomain(
  db: Db,
  name: string,
  tasks: readonly TaskAddress[],
  options: LoadOptions = {},
): Promise<RealDomain | undefined> {
  if (isRealDomain(name)) return getRealDomain(name);
  const spec = await remoteSpec(db, name);
  if (!spec) return undefined;
  const log = options.log;
  const open: EnvironmentOpener =
    options.open ?? ((s, numberOf) => new RemoteEnvironment(s, numberOf, log ? { log } : {}));
  const probe: TaskProber = options.probe ?? ((s, n) => probeTask(s, n, log ? { log } : {}));
  const prepared = await prepareTasks(db, spec, tasks, probe, options.onProgress);
  const domain = new RemoteDomain(spec, open, prepared);
  const logs = options.loggedActions === false ? undefined : await importedLogs(db, name);
  if (logs) domain.takeActionsFrom(logs);
  return domain;
}

/** The domain's imported logs, where there are enough to learn its actions from (else none). */
async function importedLogs(db: Db, name: string) {
  const imported = await db.task.count({ where: { domain: name, origin: "imported" } });
  if (imported === 0) return undefined;
  try {
    return await loadImportedDomain(db, name);
  } catch (error) {
    if (error instanceof NotTrainableError) return undefined;
    throw error;
  }
}

/** The addresses of a split's first `count` tasks. */
export function firstTasks(split: TaskAddress["split"], count: number, offset = 0): TaskAddress[] {
  return Array.from({ length: count }, (_, i) => ({ split, index: offset + i }));
}
