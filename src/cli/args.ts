import { InvalidArgumentError } from "commander";
import { DomainName } from "@/core/envs/names";
import { config } from "@/env";
import { getDb } from "@/server/db";
import { migrateDeploy } from "@/server/migrate";

/** Argument parsers that say what was wrong with the value. */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  return n;
}

export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new InvalidArgumentError(`expected an integer >= 0, got "${value}"`);
  return n;
}

export function probability(value: string): number {
  const n = Number(value);
  if (!(n >= 0 && n <= 1)) throw new InvalidArgumentError(`expected a number in [0, 1], got "${value}"`);
  return n;
}

export function choice<T extends string>(options: readonly T[]) {
  return (value: string): T => {
    if (!(options as readonly string[]).includes(value)) {
      throw new InvalidArgumentError(`expected one of ${options.join(", ")}, got "${value}"`);
    }
    return value as T;
  };
}

/** A domain's name as domains are named (built in, remote or imported); whether it exists is the command's to say. */
export function domainName(value: string): string {
  const parsed = DomainName.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(parsed.error.issues[0]?.message ?? "invalid domain");
  return parsed.data;
}

export function printJson(value: unknown) {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/** The database, migrated: every command works on a fresh data folder. */
export async function database() {
  await migrateDeploy(config().databaseUrl);
  return getDb();
}
