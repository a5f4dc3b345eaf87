import { ImportedDomain } from "@/core/envs/imported/importedDomain";
import { REAL_DOMAIN_NAMES } from "@/core/envs/names";
import type { Split, Task } from "@/core/types";
import type { Db } from "../db";
import type { StoredTransition } from "./lanceSchema";
import { offlineEpisodes } from "./offlineEpisodes";

/**
 * An imported domain as a run trains in it: its imported tasks and their offline logs from the database, in a
 * fixed order (the same data gives the same domain). Refuses a name that was never imported.
 */
export async function loadImportedDomain(db: Db, name: string): Promise<ImportedDomain<StoredTransition>> {
  const rows = await db.task.findMany({
    where: { domain: name, origin: "imported" },
    orderBy: { id: "asc" },
    select: { id: true, instruction: true, split: true },
  });
  if (rows.length === 0)
    throw new Error(
      `unknown domain "${name}": it is not built in (${REAL_DOMAIN_NAMES.join(", ")}) and no trajectories were imported under it`,
    );
  const tasks: Task[] = rows.map((r) => ({
    id: r.id,
    domain: name,
    instruction: r.instruction,
    split: r.split as Split,
    origin: "imported",
  }));
  return new ImportedDomain({ name, tasks, episodes: await offlineEpisodes(db, name) });
}
