import { episodeHref } from "@/features/episodes/lib/explorerParams";

/** The ways a prediction departs from the real answer, in the order the step view lists them. */
export const PARTING_REASONS = ["state", "reward", "done", "valid"] as const;
export type PartingReason = (typeof PARTING_REASONS)[number];

export const REASON_LABELS: Record<PartingReason, string> = {
  state: "next state differs",
  reward: "reward differs",
  done: "done differs",
  valid: "valid differs",
};

interface EpisodeLink {
  id: string;
  runId: string | null;
  parting: ({ index: number } & Record<PartingReason, boolean>) | null;
}

/**
 * The step view at a step of the episode. The run's synthetic episodes go along as the explorer's filter, so that
 * n/p in the step view move through the run's other synthetic episodes.
 */
export function stepHref(episode: Pick<EpisodeLink, "id" | "runId">, step: number): string {
  const filter = new URLSearchParams({ source: "synthetic" });
  if (episode.runId) filter.set("run", episode.runId);
  return episodeHref(episode.id, `?${filter.toString()}`, step);
}

/** Where Enter takes a row: the step where model and real environment part, or the episode's start. */
export function openHref(episode: EpisodeLink): string {
  return stepHref(episode, episode.parting?.index ?? 0);
}

/** The reasons an episode parts at its first divergent step. */
export function reasonsOf(parting: EpisodeLink["parting"]): PartingReason[] {
  return parting ? PARTING_REASONS.filter((r) => parting[r]) : [];
}

/** An excess with its sign, so that paid-too-much and paid-too-little read apart. */
export function signed(x: number, format: (x: number) => string): string {
  return x > 0 ? `+${format(x)}` : format(x);
}
