import type { CurriculumDomain } from "./domainGoals";
import type { TaskGenerator } from "./generator";
import { householdTaskGenerator } from "./householdVariations";
import { officeTaskGenerator } from "./officeVariations";
import { shopTaskGenerator } from "./shopVariations";

/**
 * The grounded embedded task generator of a domain (operators over goals drawn from the real environment's catalog
 * or room generator, each checked by the domain's goal checker); deterministic under the rng.
 */
export function embeddedTaskGenerator(domain: CurriculumDomain): TaskGenerator {
  switch (domain) {
    case "shop":
      return shopTaskGenerator();
    case "household":
      return householdTaskGenerator();
    case "office":
      return officeTaskGenerator();
  }
}
