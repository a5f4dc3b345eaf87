import type { RealDomain } from "./domain";
import { ImportedDomain } from "./imported/importedDomain";

/** What a run trains in: a built-in domain with its real environment, or an imported one that has only logs. */
export type TrainingDomain = RealDomain | ImportedDomain;

export function isImportedDomain(domain: TrainingDomain): domain is ImportedDomain {
  return domain instanceof ImportedDomain;
}
