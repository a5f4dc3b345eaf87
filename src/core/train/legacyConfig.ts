import type { z } from "zod";
import { isRealDomainName } from "../envs/names";

/**
 * Run configs stored before the settings were grouped (every stored run keeps its whole resolved config), read in
 * today's shape: the experiments move under `experimental`, and the switches that were removed after they lost on
 * validation (docs/experiments.md) are dropped while they hold the value that left them off, and `offlineOnly`
 * becomes its two settings. A stored run that turned a removed switch on cannot be read as it ran, and says so.
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
  if (isRecord(out.experience) && "offlineOnly" in out.experience) {
    // `offlineOnly` said two things at once: retrieve the offline data alone, and add no synthetic transition to
    // the buffer. Its "off" is buffer enrichment. A config that had it is from before the blind task generator,
    // when a built-in domain's variations were always grounded (imported and remote ones were already blind).
    const { offlineOnly, ...experience } = out.experience;
    out.experience = { ...experience, enrichBuffer: offlineOnly === false };
    const curriculum = isRecord(out.curriculum) ? out.curriculum : {};
    if (!("generator" in curriculum))
      out.curriculum = {
        ...curriculum,
        generator: isRealDomainName(String(out.domain)) ? "grounded" : "blind",
      };
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
