import { isRealDomainName } from "@/core/envs/names";
import type { DomainKind } from "../types";

/**
 * A domain's kind by its name: built in without asking, else as the domains list says, or null while the list is
 * loading or when no domain has the name any more (a removed remote domain's runs stay).
 */
export function domainKindOf(
  name: string,
  domains: ReadonlyArray<{ name: string; kind: DomainKind }> | undefined,
): DomainKind | null {
  if (isRealDomainName(name)) return "built-in";
  return domains?.find((d) => d.name === name)?.kind ?? null;
}

/** A built-in or remote domain has a real environment: real success, fidelity and the sim-to-real gap. */
export function hasRealEnvironment(kind: DomainKind | null): boolean {
  return kind === "built-in" || kind === "remote";
}
