import { z } from "zod";

/**
 * The built-in real domains, by name: the one list that config schemas, job payloads, the CLI, the launch form
 * and the curriculum read. It lives apart from the registry so that browser code can validate a domain name
 * without loading the environments (the shop's catalogue alone is large); the registry is checked against it.
 */
export const REAL_DOMAIN_NAMES = ["shop", "household", "office"] as const;
export type RealDomainName = (typeof REAL_DOMAIN_NAMES)[number];

/** What each built-in domain stands in for, for labels. */
export const REAL_DOMAIN_LABELS: Record<RealDomainName, string> = {
  shop: "shop (WebShop)",
  household: "household (ALFWorld)",
  office: "office (tool use: API calls)",
};

export function isRealDomainName(name: string): name is RealDomainName {
  return (REAL_DOMAIN_NAMES as readonly string[]).includes(name);
}

/**
 * Any domain's name: a built-in one, or one that trajectories were imported under (which then exists only as
 * logs: its runs train in the synthetic environment alone).
 */
export const DomainName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9_-]+$/, "domain must be lowercase letters, digits, '-' or '_'");
