import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * A LanceDB table's folder whose creation never committed: a full disk or a kill between the folder and its first
 * manifest. LanceDB lists such a folder as a table and then cannot open it ("Table … was not found"), so the replay
 * buffer would stay unusable. It holds no row, so it is removed, and the table is created again. A creation under
 * way in another process writes its manifest within milliseconds: the folder is looked at twice, a second apart.
 */
export async function removeUnfinishedTable(dir: string, table: string, graceMs = 1_000): Promise<boolean> {
  const folder = path.join(dir, `${table}.lance`);
  const committed = () => {
    if (!fs.existsSync(folder)) return true;
    const versions = path.join(folder, "_versions");
    return fs.existsSync(versions) && fs.readdirSync(versions).some((f) => f.endsWith(".manifest"));
  };
  if (committed()) return false;
  await sleep(graceMs);
  if (committed()) return false;
  fs.rmSync(folder, { recursive: true, force: true });
  return true;
}
