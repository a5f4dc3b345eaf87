import type { CurriculumDomain } from "./domainGoals";
import type { TaskGenerator } from "./generator";
import { householdTaskGenerator } from "./householdVariations";
import { officeTaskGenerator } from "./officeVariations";
import { shopTaskGenerator } from "./shopVariations";

/** The embedded (no model, deterministic under the rng) task generator of a domain. */
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
