import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../tests/helpers/testDb";
import { createCaller } from "../api/root";
import { signedIn } from "../api/testing";
import { escapeLike, withLikeEscape } from "./like";

describe("LIKE escaping", () => {
  it("escapes the wildcards and the escape character itself", () => {
    expect(escapeLike("50% off_now \\ end")).toBe("50\\% off\\_now \\\\ end");
    expect(escapeLike("plain")).toBe("plain");
  });

  it("names the escape character in Prisma's SQLite LIKE, once", () => {
    const sql = "SELECT 1 FROM `t` WHERE (`a` LIKE ? AND NOT `b` LIKE ?)";
    expect(withLikeEscape(sql)).toBe(
      "SELECT 1 FROM `t` WHERE (`a` LIKE ? ESCAPE '\\' AND NOT `b` LIKE ? ESCAPE '\\')",
    );
    expect(withLikeEscape(withLikeEscape(sql))).toBe(withLikeEscape(sql));
  });
});

describeEachDatabase("the trajectory search", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
    const instructions = {
      percent: "Find a coat at 50% off",
      underscore: "Open drawer_2 and take the key",
      backslash: "Type C:\\temp into a box",
      plain: "Buy a red mug under 20 dollars",
    };
    for (const [id, instruction] of Object.entries(instructions)) {
      await t.db.task.create({ data: { id, domain: "web", instruction, origin: "imported" } });
      await t.db.trajectory.create({ data: { id: `t-${id}`, taskId: id, domain: "web", source: "offline" } });
    }
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const found = async (search: string) =>
    (await createCaller(signedIn(t.db, "viewer")).trajectories.list({ search })).items
      .map((item) => item.task.id)
      .sort();

  it("finds the characters typed, not a LIKE pattern: % and _ match only themselves", async () => {
    expect(await found("%")).toEqual(["percent"]);
    expect(await found("50%")).toEqual(["percent"]);
    expect(await found("_")).toEqual(["underscore"]);
    expect(await found("r_2")).toEqual(["underscore"]);
    expect(await found("\\")).toEqual(["backslash"]);
    expect(await found("C:\\temp")).toEqual(["backslash"]);
    // Still a case-blind substring search, on either database.
    expect(await found("RED MUG")).toEqual(["plain"]);
    expect(await found("a")).toEqual(["backslash", "percent", "plain", "underscore"]);
  });

  it("steps between episodes under an escaped search as the list shows them", async () => {
    const caller = createCaller(signedIn(t.db, "viewer"));
    const adjacent = await caller.trajectories.adjacent({ id: "t-percent", filter: { search: "%" } });
    expect(adjacent).toMatchObject({ position: 1, total: 1, previousId: null, nextId: null });
  });
});
