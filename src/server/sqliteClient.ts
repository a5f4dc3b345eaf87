import { AsyncLocalStorage } from "node:async_hooks";
import { type Client, type Config, createClient, LibsqlError, type Transaction } from "@libsql/client";

/** SQLite's primary result code for "database is locked" (extended codes such as BUSY_SNAPSHOT share its low byte). */
const SQLITE_BUSY = 5;

/** A statement that SQLite answered busy: it stays in progress until reset, unlike one that failed otherwise. */
function isStatementBusy(error: unknown): boolean {
  if (!(error instanceof LibsqlError)) return false;
  return error.rawCode !== undefined
    ? (error.rawCode & 0xff) === SQLITE_BUSY
    : error.code.startsWith("SQLITE_BUSY");
}

/**
 * A libsql client for Prisma's adapter on a SQLite file that other connections write too (web, workers, their
 * threads). It mends three ways in which libsql (0.3 to 0.5 at least) lets one connection block all the others:
 * - libsql hands its connection to each interactive transaction and lazily opens a new one for what follows, so
 *   per-connection settings (busy timeout, foreign keys) are applied again to every connection it opens;
 * - a statement that failed with SQLITE_BUSY is never reset: it stays in progress until the garbage collector
 *   finalizes it, and while it is, SQLite commits nothing else on that connection (an autocommit write commits
 *   only once no statement is in progress) yet keeps its write lock. After one heartbeat of a train job found the
 *   database busy, the next write on its connection held the lock for the rest of the job, and every other
 *   writer timed out. Such a connection is retired at once (a transaction takes it over and rolls back) and the
 *   client goes on with a fresh one;
 * - a transaction whose COMMIT failed is rolled back: Prisma counts it as closed and never rolls it back, so its
 *   BEGIN would hold the write lock for as long as the connection lives.
 */
export function createSqliteClient(config: Config, pragmas: readonly string[]): Client {
  const client = createClient(config);
  const execute = client.execute.bind(client);
  const transaction = client.transaction.bind(client);
  const configure = async () => {
    for (const pragma of pragmas) await execute(pragma);
  };
  const retire = async () => {
    try {
      (await transaction("deferred")).close();
      await configure();
    } catch {
      // The caller's error is the one to report; the client goes on with whichever connection it has.
    }
  };

  client.execute = async (...args: Parameters<Client["execute"]>) => {
    try {
      return await execute(...args);
    } catch (error) {
      if (isStatementBusy(error)) await retire();
      throw error;
    }
  };
  client.transaction = async (...args: Parameters<Client["transaction"]>) => {
    let tx: Transaction;
    try {
      tx = await transaction(...args);
    } catch (error) {
      // A BEGIN IMMEDIATE that found the database busy stays in progress on the client's own connection.
      if (isStatementBusy(error)) await retire();
      throw error;
    }
    await configure();
    const wrapped = rolledBackUnlessCommitted(tx);
    const slot = directSlots.getStore();
    if (slot?.open && !slot.tx) slot.tx = wrapped;
    return wrapped;
  };
  void configure();
  return client;
}

function rolledBackUnlessCommitted(tx: Transaction): Transaction {
  const commit = tx.commit.bind(tx);
  tx.commit = async () => {
    try {
      await commit();
    } catch (error) {
      try {
        tx.close();
      } catch {
        // Nothing left to roll back.
      }
      throw error;
    }
  };
  return tx;
}

/** The libsql transaction beneath the Prisma transaction that `withDirectWrites` started in this async context. */
interface DirectSlot {
  tx: Transaction | undefined;
  open: boolean;
}
const directSlots = new AsyncLocalStorage<DirectSlot>();

/**
 * Runs `transaction`, one Prisma `$transaction` call, so that bulk writes inside it can go straight to the libsql
 * transaction Prisma runs it on (`directTransaction`). Prisma's query compiler copies every bound parameter
 * through JSON and WebAssembly, which for a multi-row INSERT of rollouts (megabytes of page text) or a run's
 * checkpoint costs about five times SQLite's own work. The statements still run on the transaction's connection,
 * after its fence and before its commit, so all-or-nothing holds. On PostgreSQL nothing changes.
 */
export async function withDirectWrites<T>(transaction: () => Promise<T>): Promise<T> {
  const slot: DirectSlot = { tx: undefined, open: true };
  try {
    return await directSlots.run(slot, transaction);
  } finally {
    // Work that outlives the transaction but was started inside it must not find its connection.
    slot.open = false;
    slot.tx = undefined;
  }
}

/** The libsql transaction of the `withDirectWrites` transaction this code runs in, if any (SQLite only). */
export function directTransaction(): Transaction | undefined {
  const slot = directSlots.getStore();
  return slot?.open ? slot.tx : undefined;
}
