/**
 * How a minibatch's per-decision loss terms are averaged into its loss (verl's loss_agg_mode): each returns the
 * weighing of one minibatch, term -> its weighted share, which the update loop applies to the loss and to every
 * gradient coefficient alike.
 */

export const AGGREGATION_NAMES = ["episode", "decision", "mean"] as const;
export type AggregationName = (typeof AGGREGATION_NAMES)[number];

/** What a weighing reads of a decision: the length of the episode it belongs to. */
export interface Weighed {
  episodeLength: number;
}

/** One minibatch's weighing: decision k's term (a loss or a derivative) becomes its share of the minibatch's. */
export type Weigh = (term: number, k: number) => number;

export const AGGREGATIONS: Record<
  AggregationName,
  (minibatch: readonly number[], samples: readonly Weighed[]) => Weigh
> = {
  /**
   * Each episode weighs 1 whatever its length, 1/G sum_i 1/|o_i| sum_t (DeepSeekMath): a 50-step failure does not
   * drown a 5-step success.
   */
  episode: weighted((s) => 1 / Math.max(1, s.episodeLength)),
  /** Each decision weighs 1 (DAPO's token-level mean): long episodes carry more of the gradient. */
  decision: weighted(() => 1),
  /**
   * Each decision weighs 1, as CleanRL's .mean() computes it (term / n, PPO). The same average as "decision" but
   * rounded differently: kept apart so PPO runs stay bit for bit what they were.
   */
  mean: (minibatch) => {
    const n = minibatch.length;
    return (term) => term / n;
  },
};

/** Each decision's share is its weight over the minibatch's total weight. */
function weighted(weightOf: (sample: Weighed) => number) {
  return (minibatch: readonly number[], samples: readonly Weighed[]): Weigh => {
    let total = 0;
    for (const k of minibatch) total += weightOf(samples[k] as Weighed);
    return (term, k) => (weightOf(samples[k] as Weighed) / total) * term;
  };
}
