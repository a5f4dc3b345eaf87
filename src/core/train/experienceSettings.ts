import { oracleOn } from "../experience/oracle";
import type { ExperienceSettings } from "../experience/types";
import { REAL_ENV_SOURCES } from "../types";
import type { RunConfig } from "./config";

/** The synthetic environment's settings of a run: the paper's switches, and the experiments that act there. */
export function experienceSettings(config: RunConfig): ExperienceSettings {
  const { experience, experimental } = config;
  return {
    k: experience.k,
    historyWindow: experience.historyWindow,
    reasoning: experience.reasoning,
    // Without enrichment, what the real environment produced: the offline logs, and the run's own real
    // transitions when it learns them. With it, every source the run's buffer holds, its synthetic ones too.
    ...(experience.enrichBuffer
      ? {}
      : { sources: experimental.learnFromReal ? [...REAL_ENV_SOURCES] : ["offline" as const] }),
    ...(experimental.pessimism.mode !== "off" ? { pessimism: experimental.pessimism } : {}),
    ...(oracleOn(experimental.oracle) ? { oracle: experimental.oracle } : {}),
  };
}
