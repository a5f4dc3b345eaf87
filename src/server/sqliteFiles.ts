import fs from "node:fs";
import path from "node:path";

/** Owner only: the database holds live session tokens and password hashes. */
const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;
/** What SQLite keeps beside the database: the write-ahead log, its index, a rollback journal. */
const COMPANIONS = ["-wal", "-shm", "-journal"];

/** The file a SQLite URL names: file:relative.db, file:/absolute.db or file:///absolute.db (query ignored). */
export function sqliteFilePath(url: string): string {
  const rest = url.replace(/^file:/i, "").replace(/\?.*$/, "");
  return path.resolve(
    /*turbopackIgnore: true*/ rest.startsWith("//") ? new URL(`file:${rest}`).pathname : rest,
  );
}

/**
 * Makes a SQLite database readable by its owner alone, before anything opens it: its folder is created 0700 when
 * missing, the file is created empty 0600 when missing (SQLite takes an empty file for a new database, and gives the
 * -wal and -shm files it creates the database file's mode), and an existing database and its companions made
 * before this (0644 under the usual umask) are brought down to 0600. A file this process may not change is left
 * as it is: its owner decided.
 */
export function protectSqliteFiles(url: string): void {
  const file = sqliteFilePath(url);
  fs.mkdirSync(/*turbopackIgnore: true*/ path.dirname(file), { recursive: true, mode: FOLDER_MODE });
  fs.closeSync(fs.openSync(/*turbopackIgnore: true*/ file, "a", FILE_MODE));
  for (const target of [file, ...COMPANIONS.map((suffix) => `${file}${suffix}`)]) {
    try {
      if ((fs.statSync(/*turbopackIgnore: true*/ target).mode & 0o777) !== FILE_MODE)
        fs.chmodSync(/*turbopackIgnore: true*/ target, FILE_MODE);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "EPERM") throw error;
    }
  }
}
