import { z } from "zod";
import { EXPERIENCE_PROMPT_VERSION } from "@/core/experience/prompt";
import type { ExperienceSettings } from "@/core/experience/types";

/** The experience model's switches, as a run's config names them (core/train/config.ts `experience`). */
const Switches = {
  k: z.number().int().min(0).max(64).default(8),
  historyWindow: z.number().int().min(0).max(100).default(4),
  reasoning: z.boolean().default(true),
};

/**
 * One version of the experience model that a regression check runs: the embedded backend under its settings, or
 * an OpenAI-compatible endpoint's model. The endpoint's prompt is the one this build writes
 * (EXPERIENCE_PROMPT_VERSION), recorded with the check so that versions of the prompt can be told apart.
 */
export const ExperienceVersion = z.discriminatedUnion("backend", [
  z.object({ backend: z.literal("embedded"), ...Switches }),
  z.object({
    backend: z.literal("openai"),
    ...Switches,
    model: z.string().trim().min(1, "Name the endpoint's model").max(200),
    /** Absent: the endpoint the app is configured with (openai.baseURL). */
    baseURL: z.url("The endpoint must be a URL, e.g. http://127.0.0.1:8000/v1").max(500).optional(),
  }),
]);
export type ExperienceVersion = z.infer<typeof ExperienceVersion>;

/** What a check runs against: a domain's flagged steps, and that many held-out transitions of its real environment. */
export const CheckScope = z.object({
  domain: z.string().trim().min(1).max(100),
  heldOut: z.number().int().min(0).max(2_000).default(40),
});
export type CheckScope = z.infer<typeof CheckScope>;

/** What RegressionCheck.model holds: the version, its scope, and the prompt version an endpoint was asked with. */
export const StoredCheckModel = z.object({
  version: ExperienceVersion,
  scope: CheckScope,
  promptVersion: z.string().nullable(),
});
export type StoredCheckModel = z.infer<typeof StoredCheckModel>;

export function storedCheckModel(version: ExperienceVersion, scope: CheckScope): StoredCheckModel {
  return { version, scope, promptVersion: version.backend === "openai" ? EXPERIENCE_PROMPT_VERSION : null };
}

export function settingsOf(version: ExperienceVersion): ExperienceSettings {
  return {
    k: version.k,
    historyWindow: version.historyWindow,
    reasoning: version.reasoning,
    // A check retrieves from the domain's offline transitions alone (versionModel): no run's synthetic ones.
    sources: ["offline"],
  };
}

/** How people name a version: "embedded k=8 h=4" or "openai:gpt-4o-mini · dreamgym-exp-v2 k=8 h=4". */
export function versionLabel(model: StoredCheckModel): string {
  const v = model.version;
  const switches = [`k=${v.k}`, `h=${v.historyWindow}`, ...(v.reasoning ? [] : ["no reasoning"])].join(" ");
  if (v.backend === "embedded") return `embedded ${switches}`;
  return `openai:${v.model} · ${model.promptVersion ?? "?"} ${switches}`;
}
