import type { SimilarFilter } from "@/core/replay/buffer";

/** A SQL string literal for LanceDB's (DataFusion's) `where`: quotes are doubled, never interpolated raw. */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** Camel-case columns must be quoted, or DataFusion folds them to lower case. */
function column(name: string): string {
  return `\`${name}\``;
}

function list(values: readonly string[]): string {
  return values.map(sqlString).join(", ");
}

export interface BufferFilter extends SimilarFilter {
  domain?: string;
}

/** The `where` prefilter of a search; undefined when nothing is filtered. */
export function whereClause(filter: BufferFilter): string | undefined {
  const parts: string[] = [];
  if (filter.domain !== undefined) parts.push(`${column("domain")} = ${sqlString(filter.domain)}`);
  if (filter.sources !== undefined) {
    // An empty list of sources asks for nothing; say so rather than write invalid SQL.
    parts.push(filter.sources.length ? `${column("source")} IN (${list(filter.sources)})` : "false");
  }
  if (filter.excludeIds?.length) parts.push(`${column("id")} NOT IN (${list(filter.excludeIds)})`);
  if (filter.excludeTaskIds?.length) {
    // NULL NOT IN (...) is NULL, which would drop rows without a task.
    parts.push(
      `(${column("taskId")} IS NULL OR ${column("taskId")} NOT IN (${list(filter.excludeTaskIds)}))`,
    );
  }
  return parts.length ? parts.join(" AND ") : undefined;
}
