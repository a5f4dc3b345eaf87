import type { Db } from "@/server/db";
import type { Dialect } from "@/server/sql/dialect";

/** What a full disk says; the triggers below say it too. */
export const DISK_FULL = "database or disk is full";

/**
 * From now on, every `op` of a row of `table` fails as on a full disk (a trigger raising DISK_FULL), until the
 * returned function drops the trigger. `name` names the trigger: one per table and operation.
 */
export async function refuseWrites(
  db: Db,
  dialect: Dialect,
  table: string,
  op: "INSERT" | "UPDATE" | "DELETE",
  name: string,
): Promise<() => Promise<void>> {
  if (dialect === "sqlite") {
    await db.$executeRawUnsafe(
      `CREATE TRIGGER ${name} BEFORE ${op} ON "${table}" BEGIN SELECT RAISE(ABORT, '${DISK_FULL}'); END`,
    );
    return async () => {
      await db.$executeRawUnsafe(`DROP TRIGGER ${name}`);
    };
  }
  await db.$executeRawUnsafe(
    `CREATE OR REPLACE FUNCTION refuse_write() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION '${DISK_FULL}'; END $$ LANGUAGE plpgsql`,
  );
  await db.$executeRawUnsafe(
    `CREATE TRIGGER ${name} BEFORE ${op} ON "${table}" FOR EACH ROW EXECUTE FUNCTION refuse_write()`,
  );
  return async () => {
    await db.$executeRawUnsafe(`DROP TRIGGER ${name} ON "${table}"`);
  };
}
