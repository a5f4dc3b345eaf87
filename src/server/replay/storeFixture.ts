import { afterEach, beforeEach } from "vitest";
import type { Embedder } from "@/core/replay/embedder";
import { HashNgramEmbedder } from "@/core/replay/hashEmbedder";
import type { Dialect } from "@/server/sql/dialect";
import { createTestDb, type TestDb } from "../../../tests/helpers/testDb";
import type { LanceReplayBuffer } from "./lanceReplayBuffer";
import { openReplayBuffer } from "./openReplayBuffer";
import { tempLanceDir } from "./testing";

/**
 * For tests of the Prisma↔LanceDB pair: a fresh database (SQLite unless told) and LanceDB folder per test, and
 * `store()` to open the
 * replay buffer over both (closed after the test).
 */
export function dbAndLanceFixture(dialect: Dialect = "sqlite") {
  let t: TestDb | undefined;
  let lance: ReturnType<typeof tempLanceDir> | undefined;
  const open: LanceReplayBuffer[] = [];
  beforeEach(async () => {
    t = await createTestDb(dialect);
    lance = tempLanceDir();
  });
  afterEach(async () => {
    for (const store of open.splice(0)) store.close();
    await t?.cleanup();
    lance?.cleanup();
  });
  const fixture = {
    get db() {
      if (!t) throw new Error("dbAndLanceFixture: used outside a test");
      return t.db;
    },
    /** The database's URL, for a second client (another process's connection). */
    get url() {
      if (!t) throw new Error("dbAndLanceFixture: used outside a test");
      return t.url;
    },
    get lanceDir() {
      if (!lance) throw new Error("dbAndLanceFixture: used outside a test");
      return lance.dir;
    },
    async store(embedder: Embedder = new HashNgramEmbedder()) {
      const s = await openReplayBuffer({ lancedbDir: fixture.lanceDir, embedder, db: fixture.db });
      open.push(s);
      return s;
    },
    /** Closes a store before the test ends (as a restarted process would), so it is not closed twice. */
    close(store: LanceReplayBuffer) {
      store.close();
      open.splice(open.indexOf(store), 1);
    },
  };
  return fixture;
}
