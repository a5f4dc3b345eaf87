import { OfflineMemory } from "@/core/experience/retrieval/offlineMemory";
import type { Db } from "../db";
import { STEP_SELECT, stepToTransition } from "../replay/stepTransition";

/** The embedded experience model's memory of a domain's offline demonstrations, from the database. */
export async function offlineOfflineMemory(db: Db, domain: string): Promise<OfflineMemory> {
  const steps = await db.step.findMany({
    where: { trajectory: { domain, source: "offline" } },
    // The order the offline replay buffer uses, so that the memory is the one a run learns.
    orderBy: [{ trajectoryId: "asc" }, { index: "asc" }],
    select: STEP_SELECT,
  });
  return OfflineMemory.fromTransitions(steps.map(stepToTransition));
}
