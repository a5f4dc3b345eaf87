/** The annotators an item is assigned to (Annotation.assignees); none when the column is empty or unreadable. */
export function assigneesOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}
