import type { RealDomain } from "./domain";
import { household } from "./household";
import { shop } from "./shop";

/** The real environments built in. Imported domains (e.g. "web") have logs but no environment. */
export const REAL_DOMAINS = { shop, household } as const satisfies Record<string, RealDomain>;
export type RealDomainName = keyof typeof REAL_DOMAINS;

export function isRealDomain(name: string): name is RealDomainName {
  return Object.hasOwn(REAL_DOMAINS, name);
}

export function getRealDomain(name: string): RealDomain {
  if (!isRealDomain(name)) {
    throw new Error(
      `"${name}" has no real environment here; built-in domains: ${Object.keys(REAL_DOMAINS).join(", ")}`,
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
