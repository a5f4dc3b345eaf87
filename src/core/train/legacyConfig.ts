import type { z } from "zod";

/**
 * Run configs stored before the settings were grouped (every stored run keeps its whole resolved config), read in
 * today's shape: the experiments move under `experimental`, and the switches that were removed after they lost on
 * validation (docs/experiments.md) are dropped while they hold the value that left them off. A stored run that
 * turned one on cannot be read as it ran, and says so.
 */
const MOVED_FROM_EXPERIENCE = ["learnFromReal", "pessimism", "oracle"] as const;

/** Removed settings and the value at which dropping them changes nothing. */
const REMOVED: { path: string[]; off: (value: unknown) => boolean }[] = [
  { path: ["learningRateAnneal"], off: (v) => v === 0 },
  { path: ["learningRateWarmup"], off: (v) => v === 0 },
  { path: ["realLearningRate"], off: (v) => v === undefined || v === null },
  { path: ["curriculum", "freshValuesForReal"], off: (v) => v === true },
];

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export function upgradeStoredConfig(value: unknown, ctx: z.core.$RefinementCtx): unknown {
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = { ...value };
  const experimental: Record<string, unknown> = isRecord(out.experimental) ? { ...out.experimental } : {};
  let moved = false;
  if ("realInterleave" in out) {
    experimental.realInterleave ??= out.realInterleave;
    delete out.realInterleave;
    moved = true;
  }
  if (isRecord(out.experience)) {
    const experience = { ...out.experience };
    for (const key of MOVED_FROM_EXPERIENCE)
      if (key in experience) {
        experimental[key] ??= experience[key];
        delete experience[key];
        moved = true;
      }
    out.experience = experience;
  }
  if (moved) out.experimental = experimental;
  for (const { path, off } of REMOVED) {
    const parent = path.length === 1 ? out : out[path[0] as string];
    const key = path.at(-1) as string;
    if (!isRecord(parent) || !(key in parent)) continue;
    if (!off(parent[key])) {
      ctx.addIssue({
        code: "custom",
        path,
        message: `${path.join(".")} was removed (it lost on validation tasks: docs/experiments.md); this config sets it to ${JSON.stringify(parent[key])}`,
        input: value,
      });
      continue;
    }
    if (path.length === 1) delete out[key];
    else out[path[0] as string] = Object.fromEntries(Object.entries(parent).filter(([k]) => k !== key));
  }
  return out;
}
