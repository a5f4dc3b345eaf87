import { episodeHref } from "@/features/episodes/lib/explorerParams";
import { DIVERGENCE_REASONS, type DivergenceReason } from "@/shared/divergence";

/** The ways a prediction departs from the real answer in what matters (shared/divergence), in the table's order. */
export const PARTING_REASONS = DIVERGENCE_REASONS;
export type PartingReason = DivergenceReason;

export const REASON_LABELS: Record<PartingReason, string> = {
  elements: "elements differ",
  choices: "choices on offer differ",
  reward: "reward differs",
  end: "the end differs",
  validity: "validity differs",
};

/** What each reason means, for the table's tooltips. */
export const REASON_TITLES: Record<PartingReason, string> = {
  elements:
    "The next state has an element (a product, a price, an object, a line) the real one lacks, or lacks one it has; case, spacing and the order of unchanged elements do not count",
  choices: "The predicted page offers a choice acting on something the real page does not show",
  reward: "The predicted reward is more than 0.1 from the real one",
  end: "One ended the episode and the other did not",
  validity: "One took the action as possible and the other did not",
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
