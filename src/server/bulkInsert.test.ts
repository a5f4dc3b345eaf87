import { afterEach, beforeEach, expect, it } from "vitest";
import { createTestDb, describeEachDatabase, type TestDb } from "../../tests/helpers/testDb";
import { bulkInsert } from "./bulkInsert";
import { directTransaction, withDirectWrites } from "./sqliteClient";

const COLUMNS = [
  "id",
  "domain",
  "instruction",
  "split",
  "origin",
  "goal",
  "generation",
  "createdAt",
] as const;
const row = (id: string, text: string) => [
  id,
  "shop",
  text,
  "train",
  "seed",
  { asin: id, options: { size: "x-large" } },
  2,
  new Date("2026-11-25T01:02:03.000Z"),
];

describeEachDatabase("bulk inserts in a transaction with direct writes", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("store what Prisma reads back, on the transaction's own connection (SQLite), all or nothing", async () => {
    const page = "i want a lime sparkling water [SEP] ".repeat(400);
    const seen: boolean[] = [];
    await withDirectWrites(() =>
      t.db.$transaction(async (tx) => {
        seen.push(directTransaction() !== undefined);
        await bulkInsert(tx, "Task", COLUMNS, [row("a", page), row("b", "short")]);
        // Read through Prisma's side of the same transaction: the rows are there before the commit.
        expect(await tx.task.count()).toBe(2);
      }),
    );
    expect(seen).toEqual([dialect === "sqlite"]);
    const stored = await t.db.task.findUniqueOrThrow({ where: { id: "a" } });
    expect(stored).toMatchObject({ instruction: page, generation: 2, split: "train" });
    expect(stored.goal).toEqual({ asin: "a", options: { size: "x-large" } });
    expect(stored.createdAt.toISOString()).toBe("2026-11-25T01:02:03.000Z");

    const failed = withDirectWrites(() =>
      t.db.$transaction(async (tx) => {
        await bulkInsert(tx, "Task", COLUMNS, [row("c", page)]);
        throw new Error("the iteration could not be recorded");
      }),
    );
    await expect(failed).rejects.toThrow("the iteration could not be recorded");
    expect(await t.db.task.count()).toBe(2);
  });

  it("leaves nothing behind for work that outlives the transaction", async () => {
    let later: Promise<boolean> | undefined;
    await withDirectWrites(() =>
      t.db.$transaction(async () => {
        later = new Promise((resolve) => setTimeout(() => resolve(directTransaction() !== undefined), 20));
      }),
    );
    expect(await later).toBe(false);
    expect(directTransaction()).toBeUndefined();
    // Outside any transaction bulkInsert goes through Prisma as before.
    await bulkInsert(t.db, "Task", COLUMNS, [row("d", "outside")]);
    expect(await t.db.task.count()).toBe(1);
  });
});
