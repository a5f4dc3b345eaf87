import { ImportedDomain, type LoggedEpisode } from "@/core/envs/imported/importedDomain";
import type { Split, Task } from "@/core/types";
import type { Db } from "../db";
import { selectStepRows, stepToTransition } from "../replay/stepTransition";

/**
 * An imported domain as a run trains in it: its imported tasks and their offline logs from the database, in a
 * fixed order (the same data gives the same domain). Refuses a name that was never imported.
 */
export async function loadImportedDomain(db: Db, name: string): Promise<ImportedDomain> {
  const rows = await db.task.findMany({
    where: { domain: name, origin: "imported" },
    orderBy: { id: "asc" },
    select: { id: true, instruction: true, split: true },
  });
  if (rows.length === 0)
    throw new Error(
      `unknown domain "${name}": it is not built in (shop, household) and no trajectories were imported under it`,
    );
  const tasks: Task[] = rows.map((r) => ({
    id: r.id,
    domain: name,
    instruction: r.instruction,
    split: r.split as Split,
    origin: "imported",
  }));
  const steps = await selectStepRows(
    db,
    `t.domain = ? AND t.source = 'offline' ORDER BY s.trajectoryId, s."index"`,
    name,
  );
  const episodes: LoggedEpisode[] = [];
  let current: (LoggedEpisode & { id: string }) | undefined;
  for (const row of steps) {
    if (current?.id !== row.trajectoryId) {
      current = { id: row.trajectoryId, taskId: row.trajectory.taskId, steps: [], success: false };
      episodes.push(current);
    }
    const t = stepToTransition(row);
    current.steps.push(t);
    current.success = t.success;
  }
  return new ImportedDomain({ name, tasks, episodes });
}
