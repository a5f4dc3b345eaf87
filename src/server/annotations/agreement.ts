/** One annotator's verdict on one item, as agreement reads it. */
export interface Verdict {
  annotationId: string;
  author: string;
  verdict: string;
}

/** Two annotators on the items both reviewed. */
export interface PairAgreement {
  a: string;
  b: string;
  /** Items both reviewed. */
  items: number;
  /** Of those, items where their verdicts are the same. */
  agreeing: number;
  /** agreeing / items, 0..1. */
  percent: number;
  /**
   * Cohen's kappa: agreement beyond what the two annotators' own rates of each verdict would give by chance,
   * κ = (pₒ − pₑ) / (1 − pₑ) (J. Cohen, "A coefficient of agreement for nominal scales", Educational and
   * Psychological Measurement 20(1), 1960, pp. 37–46). Null where chance alone explains everything (pₑ = 1: both
   * gave one and the same verdict to every item), where it is undefined.
   */
  kappa: number | null;
}

export interface Agreement {
  /** Items reviewed by two annotators or more. */
  overlapping: number;
  /** Pairs of verdicts on those items (an item three people reviewed gives three pairs). */
  pairs: number;
  agreeingPairs: number;
  /** agreeingPairs / pairs, 0..1; null with no overlap. */
  percent: number | null;
  byPair: PairAgreement[];
}

/** Cohen's kappa of two raters' labels on the same items, in the same order (see PairAgreement.kappa). */
export function cohensKappa(first: string[], second: string[]): number | null {
  if (first.length !== second.length)
    throw new Error("cohensKappa: the two raters must label the same items");
  const n = first.length;
  if (n === 0) return null;
  let agree = 0;
  const countsA = new Map<string, number>();
  const countsB = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    if (first[i] === second[i]) agree++;
    countsA.set(first[i]!, (countsA.get(first[i]!) ?? 0) + 1);
    countsB.set(second[i]!, (countsB.get(second[i]!) ?? 0) + 1);
  }
  const observed = agree / n;
  let chance = 0;
  for (const [label, count] of countsA) chance += (count / n) * ((countsB.get(label) ?? 0) / n);
  if (chance >= 1) return null;
  return (observed - chance) / (1 - chance);
}

/** Agreement on the items two or more annotators reviewed: overall (pairs of verdicts) and for each pair of people. */
export function agreementOf(verdicts: Verdict[]): Agreement {
  const byItem = new Map<string, Map<string, string>>();
  for (const v of verdicts) {
    const item = byItem.get(v.annotationId) ?? new Map<string, string>();
    item.set(v.author, v.verdict);
    byItem.set(v.annotationId, item);
  }
  const pairLabels = new Map<string, { a: string; b: string; first: string[]; second: string[] }>();
  let overlapping = 0;
  let pairs = 0;
  let agreeingPairs = 0;
  for (const item of byItem.values()) {
    if (item.size < 2) continue;
    overlapping++;
    const authors = [...item.keys()].sort();
    for (let i = 0; i < authors.length; i++) {
      for (let j = i + 1; j < authors.length; j++) {
        const [a, b] = [authors[i]!, authors[j]!];
        const key = `${a}\u0000${b}`;
        const pair = pairLabels.get(key) ?? { a, b, first: [], second: [] };
        pair.first.push(item.get(a)!);
        pair.second.push(item.get(b)!);
        pairLabels.set(key, pair);
        pairs++;
        if (item.get(a) === item.get(b)) agreeingPairs++;
      }
    }
  }
  const byPair = [...pairLabels.values()]
    .map(({ a, b, first, second }) => {
      const agreeing = first.filter((label, i) => label === second[i]).length;
      return {
        a,
        b,
        items: first.length,
        agreeing,
        percent: agreeing / first.length,
        kappa: cohensKappa(first, second),
      };
    })
    .sort((x, y) => y.items - x.items || x.a.localeCompare(y.a) || x.b.localeCompare(y.b));
  return { overlapping, pairs, agreeingPairs, percent: pairs ? agreeingPairs / pairs : null, byPair };
}
