/**
 * `--set grpo.klBeta=0.04`: one setting over the config file's, by its dotted path. The value is read as JSON
 * (numbers, booleans) and otherwise as text; the schema then checks it like any other field.
 */
export function applyOverride(config: Record<string, unknown>, assignment: string): void {
  const eq = assignment.indexOf("=");
  if (eq <= 0) throw new Error(`--set ${assignment}: expected key=value, e.g. --set grpo.klBeta=0.04`);
  const keys = assignment.slice(0, eq).split(".");
  const text = assignment.slice(eq + 1);
  let value: unknown = text;
  try {
    value = JSON.parse(text);
  } catch {}
  let at = config;
  for (const key of keys.slice(0, -1)) {
    const next = at[key] ?? {};
    if (typeof next !== "object" || next === null || Array.isArray(next))
      throw new Error(`--set ${assignment}: ${key} is not a group of settings`);
    at[key] = next;
    at = next as Record<string, unknown>;
  }
  at[keys.at(-1) as string] = value;
}
