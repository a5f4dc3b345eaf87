import { MIN_TEST_TASKS, MIN_TRAIN_TASKS } from "@/core/envs/imported/importedDomain";
import { isRealDomainName, REAL_DOMAIN_LABELS, REAL_DOMAIN_NAMES } from "@/core/envs/names";
import type { RunConfig } from "@/core/train/config";
import { importedRunProblem } from "@/core/train/importedRun";
import { remoteRunProblem } from "@/core/train/remoteRun";
import type { Db } from "../db";
import { listRemoteDomains, remoteSpec } from "../remoteEnv/registry";
import { queryUnsafe } from "../sql/dialect";

export interface DomainInfo {
  name: string;
  label: string;
  /**
   * Built in (a real environment in the app), remote (a real environment outside it, registered by URL), or
   * imported (logs only: synthetic training, proxy evaluation).
   */
  kind: "built-in" | "remote" | "imported";
  /** Imported domains: tasks with logs per split. */
  trainTasks: number | null;
  testTasks: number | null;
  trainable: boolean;
  /** Why an imported domain cannot be trained on yet. */
  reason: string | null;
}

/**
 * Every domain a run may name: the built-in ones, then the imported ones by name, with what they hold; or only
 * the imported one named `only`, when that is all a check needs.
 */
export async function listDomains(db: Db, only?: string): Promise<DomainInfo[]> {
  const builtIn: DomainInfo[] = (only === undefined ? REAL_DOMAIN_NAMES : []).map((name) => ({
    name,
    label: REAL_DOMAIN_LABELS[name],
    kind: "built-in",
    trainTasks: null,
    testTasks: null,
    trainable: true,
    reason: null,
  }));
  const rows = await queryUnsafe<{ domain: string; split: string; tasks: number | bigint }[]>(
    db,
    `SELECT k.domain AS domain, k.split AS split, COUNT(DISTINCT k.id) AS tasks
     FROM "Task" k JOIN "Trajectory" t ON t."taskId" = k.id
     WHERE k.origin = 'imported' AND t.source = 'offline'${only === undefined ? "" : " AND k.domain = ?"}
     GROUP BY k.domain, k.split ORDER BY k.domain`,
    ...(only === undefined ? [] : [only]),
  );
  const remote = (await listRemoteDomains(db)).filter((d) => only === undefined || d.name === only);
  const remoteNames = new Set(remote.map((d) => d.name));
  const imported = new Map<string, { train: number; test: number }>();
  for (const r of rows) {
    // A remote domain's imported logs are its offline data: the domain is the remote one.
    if (isRealDomainName(r.domain) || remoteNames.has(r.domain)) continue;
    const counts = imported.get(r.domain) ?? { train: 0, test: 0 };
    if (r.split === "train" || r.split === "test") counts[r.split] = Number(r.tasks);
    imported.set(r.domain, counts);
  }
  return [
    ...builtIn,
    ...remote.map((d) => ({
      name: d.name,
      label: `${d.name} (remote: ${d.protocolLabel})`,
      kind: "remote" as const,
      trainTasks: d.tasks.train.count,
      testTasks: d.tasks.test.count,
      trainable: true,
      reason: null,
    })),
    ...[...imported].map(([name, { train, test }]) => {
      const trainable = train >= MIN_TRAIN_TASKS && test >= MIN_TEST_TASKS;
      return {
        name,
        label: `${name} (imported: logs only)`,
        kind: "imported" as const,
        trainTasks: train,
        testTasks: test,
        trainable,
        reason: trainable
          ? null
          : `has ${train} train and ${test} test tasks with logs; training needs at least ${MIN_TRAIN_TASKS} and ${MIN_TEST_TASKS}`,
      };
    }),
  ];
}

/**
 * Why a run config cannot run on its domain, or null: an unknown domain, an imported one with too few logs, or
 * a method that needs a real environment on a domain that has none. Checked when a run is launched, so that the
 * form says so at once rather than the worker later.
 */
export async function domainProblem(db: Db, config: RunConfig): Promise<string | null> {
  if (isRealDomainName(config.domain)) return null;
  const remote = await remoteSpec(db, config.domain);
  if (remote) return remoteRunProblem(config, remote);
  const [domain] = await listDomains(db, config.domain);
  if (!domain)
    return `unknown domain "${config.domain}": it is not built in (${REAL_DOMAIN_NAMES.join(", ")}), no remote environment is registered under it, and no trajectories were imported under it`;
  if (!domain.trainable) return `imported domain "${config.domain}" ${domain.reason}`;
  return importedRunProblem(config);
}
