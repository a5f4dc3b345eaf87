import { REAL_DOMAIN_NAMES, type RealDomainName } from "@/core/envs/names";

/** The value after a flag ("--seeds 0,1" → "0,1"), or undefined where the flag is absent. */
export function flagValue(args: readonly string[], flag: string): string | undefined {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
}

/** `--domains a,b`: built-in domains only, each checked by name; `fallback` where the flag is absent. */
export function domainsFlag(args: readonly string[], fallback: readonly string[]): RealDomainName[] {
  const domains = (flagValue(args, "--domains") ?? fallback.join(",")).split(",");
  for (const d of domains)
    if (!(REAL_DOMAIN_NAMES as readonly string[]).includes(d))
      throw new Error(`--domains: unknown domain "${d}" (built in: ${REAL_DOMAIN_NAMES.join(", ")})`);
  return domains as RealDomainName[];
}
