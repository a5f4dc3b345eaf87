import { domainDeclarations } from "@/core/envs/registry";
import { OfflineMemory } from "@/core/experience/retrieval/offlineMemory";
import type { Db } from "../db";
import { offlineTransitions } from "../replay/offlineBuffer";

/** The embedded experience model's memory of a domain's offline demonstrations: the one a run's model learns. */
export async function loadOfflineMemory(db: Db, domain: string): Promise<OfflineMemory> {
  return OfflineMemory.fromTransitions(await offlineTransitions(db, domain), domainDeclarations(domain));
}
