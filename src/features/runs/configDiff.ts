/** A config as dotted keys to printable values: {rollouts: {groupSize: 4}} → {"rollouts.groupSize": "4"}. */
export function flattenConfig(config: unknown, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  if (config === null || typeof config !== "object" || Array.isArray(config)) {
    if (prefix) out.set(prefix, JSON.stringify(config) ?? "undefined");
    return out;
  }
  const entries = Object.entries(config);
  // An empty group is a value of its own ({} differs from a group with keys).
  if (entries.length === 0 && prefix) out.set(prefix, "{}");
  for (const [key, value] of entries) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === "object" && !Array.isArray(value))
      for (const [k, v] of flattenConfig(value, path)) out.set(k, v);
    else out.set(path, typeof value === "string" ? value : (JSON.stringify(value) ?? "undefined"));
  }
  return out;
}

export interface ConfigDifference {
  key: string;
  /** One per run, in the runs' order; null where the run's config has no such key. */
  values: Array<string | null>;
}

/**
 * The settings on which the runs' configs differ, nested keys flattened, in the order they first appear: what a
 * comparison of runs is a comparison of. A key that one run lacks differs too.
 */
export function configDiff(configs: readonly unknown[]): ConfigDifference[] {
  const flat = configs.map((c) => flattenConfig(c));
  const keys = [...new Set(flat.flatMap((f) => [...f.keys()]))];
  return keys
    .map((key) => ({ key, values: flat.map((f) => f.get(key) ?? null) }))
    .filter((d) => new Set(d.values).size > 1);
}
