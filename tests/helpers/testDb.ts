import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb, type Db } from "@/server/db";
import { migrateDeploy } from "@/server/migrate";

let template: Promise<string> | undefined;

/** Migrations are applied once per test process into a template file; each test database is a copy of it. */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-template-"));
    const file = path.join(dir, "template.db");
    await migrateDeploy(`file:${file}`);
    return file;
  })();
  return template;
}

export interface TestDb {
  db: Db;
  url: string;
  dir: string;
  /** Another client on the same file, as a second process would have. */
  connectAgain(): Promise<Db>;
  cleanup(): Promise<void>;
}

export async function createTestDb(): Promise<TestDb> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-test-"));
  const file = path.join(dir, "test.db");
  fs.copyFileSync(await migratedTemplate(), file);
  const url = `file:${file}`;
  const clients: Db[] = [await createDb(url)];
  return {
    db: clients[0] as Db,
    url,
    dir,
    async connectAgain() {
      const db = await createDb(url);
      clients.push(db);
      return db;
    },
    async cleanup() {
      await Promise.all(clients.map((c) => c.$disconnect()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A test database that the app's own code uses as its data folder (DREAMGYM_DATA_DIR and LANCEDB_DIR point into
 * it), holding `episodes` offline episodes of the domain's noisy expert (ε 0.3, seed 1) on train tasks 0..n-1.
 */
export async function createOfflineDb(domain: "shop" | "household", episodes: number): Promise<TestDb> {
  const t = await createTestDb();
  process.env.DREAMGYM_DATA_DIR = t.dir;
  process.env.LANCEDB_DIR = path.join(t.dir, "lancedb");
  // Loaded here only: most tests that use this file never collect, and the environments are large to import.
  const { collectOffline } = await import("@/server/collect/collectOffline");
  await collectOffline(t.db, {
    domain,
    policy: "noisy",
    episodes,
    split: "train",
    epsilon: 0.3,
    seed: 1,
    offset: 0,
  });
  return t;
}

/** createOfflineDb of the household, which most worker tests train in (short episodes, a warm start). */
export function createHouseholdOfflineDb(episodes: number): Promise<TestDb> {
  return createOfflineDb("household", episodes);
}
