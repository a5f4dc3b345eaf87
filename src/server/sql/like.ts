import type { Client, InStatement } from "@libsql/client";

/**
 * Text for Prisma's `contains` (and startsWith, endsWith) that matches itself and nothing else. Prisma hands the
 * value to LIKE as it is, where `%` matches any run of characters and `_` any one, so a search for "%" found every
 * row. Each of `\`, `%` and `_` is escaped with a backslash: PostgreSQL's LIKE and ILIKE take the backslash as
 * their escape character by default, and SQLite's statements are told to (escapingLike).
 */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}

/** Prisma's LIKE on SQLite, which names no escape character (SQLite then has none), with the backslash named. */
const BARE_LIKE = / LIKE \?(?! ESCAPE)/g;

export function withLikeEscape(sql: string): string {
  return sql.replace(BARE_LIKE, " LIKE ? ESCAPE '\\'");
}

/** The same statement with the escape character named in its LIKEs. */
function escaped(statement: InStatement): InStatement {
  return typeof statement === "string"
    ? withLikeEscape(statement)
    : { ...statement, sql: withLikeEscape(statement.sql) };
}

/**
 * A libsql client whose statements (and its transactions' statements) give LIKE the backslash as escape character,
 * as PostgreSQL's does, so that escapeLike means the same on both databases. Prisma writes every LIKE of a
 * SQLite query as "… LIKE ?" with a bound pattern; nothing else in DreamGym writes LIKE.
 */
export function escapingLike(client: Client): Client {
  const execute = client.execute.bind(client);
  const transaction = client.transaction.bind(client);
  client.execute = (statement: InStatement) => execute(escaped(statement));
  client.transaction = async (...args: Parameters<Client["transaction"]>) => {
    const tx = await transaction(...args);
    const run = tx.execute.bind(tx);
    tx.execute = (statement: InStatement) => run(escaped(statement));
    return tx;
  };
  return client;
}
