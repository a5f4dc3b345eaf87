/**
 * An environment server for tests, as the server tests and the remote-environment tests start it: a fresh
 * database whose folder is the data folder (the replay buffer's LanceDB inside it), and the server on a free port
 * of 127.0.0.1 with its timers short and its indexing left to the test. Its writes go inline unless `databaseUrl` is given
 * (then on a writer thread of their own).
 */
import path from "node:path";
import { type EnvServer, type EnvServerOptions, startEnvServer } from "@/server/envServer/server";
import { createTestDb, type TestDb } from "./testDb";

/** A fresh database, and the process's data folder and LanceDB pointed into its folder. */
export async function createServerTestDb(): Promise<TestDb> {
  const t = await createTestDb();
  process.env.DREAMGYM_DATA_DIR = t.dir;
  process.env.LANCEDB_DIR = path.join(t.dir, "lancedb");
  return t;
}

/** The server on `t`, with the tests' defaults (any port, no prediction threads, figures every 20 ms). */
export function startTestEnvServer(t: TestDb, options: EnvServerOptions = {}): Promise<EnvServer> {
  return startEnvServer(t.db, {
    port: 0,
    threads: 0,
    figuresMs: 20,
    indexEveryMs: 0,
    ...options,
  });
}
