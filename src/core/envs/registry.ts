import type { DomainDeclarations, RealDomain } from "./domain";
import { household } from "./household";
import { isRealDomainName, REAL_DOMAIN_NAMES, type RealDomainName } from "./names";
import { office } from "./office";
import { shop } from "./shop";

export type { RealDomainName } from "./names";

/** The real environments built in, one per name in names.ts. Imported domains (e.g. "web") have logs but no environment. */
export const REAL_DOMAINS: Readonly<Record<RealDomainName, RealDomain>> = { shop, household, office };

export const isRealDomain = isRealDomainName;

/** What a built-in domain declares for the experience model (none for any other domain). */
export function domainDeclarations(name: string): DomainDeclarations | undefined {
  return isRealDomain(name) ? REAL_DOMAINS[name].declarations : undefined;
}

export function getRealDomain(name: string): RealDomain {
  if (!isRealDomain(name)) {
    throw new Error(
      `"${name}" has no real environment here; built-in domains: ${REAL_DOMAIN_NAMES.join(", ")}`,
    );
  }
  return REAL_DOMAINS[name];
}

export type ReferencePolicy = "expert" | "random" | "noisy";

export function referencePolicy(domain: RealDomain, kind: ReferencePolicy, seed: number, epsilon: number) {
  if (kind === "expert") return { policy: domain.expert(), name: "expert" };
  if (kind === "random") return { policy: domain.random(seed), name: "random" };
  return { policy: domain.noisy(seed, epsilon), name: `noisy(eps=${epsilon})` };
}
