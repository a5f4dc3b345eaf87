/** One CSV field: quoted when it holds a comma, quote or line break, its quotes doubled (RFC 4180). */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = value instanceof Date ? value.toISOString() : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A CSV table: a header line, then one line per row in the columns' order, CRLF-separated as RFC 4180 says. */
export function toCsv(columns: readonly string[], rows: ReadonlyArray<Record<string, unknown>>): string {
  const lines = [
    columns.map(csvField).join(","),
    ...rows.map((r) => columns.map((c) => csvField(r[c])).join(",")),
  ];
  return `${lines.join("\r\n")}\r\n`;
}

/** A file name from a run's name: letters, digits and dashes only. */
export function fileSlug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 60) || "run"
  );
}
