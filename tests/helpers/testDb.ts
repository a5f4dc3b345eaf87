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
