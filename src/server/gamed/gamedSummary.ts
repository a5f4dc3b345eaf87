import { hasPhase, isRunMethod } from "@/core/train/methods";
import { Prisma } from "@/generated/prisma/client";
import { DIVERGENCE_REASONS, type DivergenceReason } from "@/shared/divergence";
import type { GamedFilter } from "@/shared/gamedFilter";
import type { Db } from "../db";
import { type FiguresRow, figuresOf, figuresQuery, filterWhere } from "./episodeFigures";
import { firstPartings } from "./parting";

/** Why episodes part at their first divergent step (shared/divergence). A step may differ in several ways at
 * once, so the reasons' counts can add up to more than `parted`. */
export type PartingBreakdown = {
  /** Episodes counted (with a real answer). */
  episodes: number;
  /** Of those, the ones whose prediction departs from the real answer somewhere. */
  parted: number;
} & Record<DivergenceReason, number>;

export interface GamedRun {
  id: string;
  name: string;
  method: string;
  domain: string;
  status: string;
  /** Whether the run's method trains in the experience model at all (the methods table): if not, it has no
   * synthetic rollouts to be gamed on. */
  synthetic: boolean;
}

export interface GamedSummary {
  /** The run the filter names, if it names one. */
  run: GamedRun | null;
  /** Synthetic episodes under the filter. */
  episodes: number;
  /** Of those, the ones with a real answer (ranked); the figures below are over these. */
  ranked: number;
  /** Episodes with no real answer at all (their task has no goal the real environment could score). */
  unanswered: number;
  gamed: number;
  /** gamed / ranked: synthetic success but real failure. */
  gamedShare: number;
  syntheticSuccessRate: number;
  realSuccessRate: number;
  meanSyntheticReturn: number;
  meanRealReturn: number;
  meanExcess: number;
  /** Episodes whose real replay ended before the synthetic episode did. */
  realEndedFirst: number;
  parting: { all: PartingBreakdown; gamed: PartingBreakdown };
}

/** Episodes read per page: a page's figures and one candidate step per episode are in memory at once. */
export const SUMMARY_PAGE = 500;

const emptyBreakdown = (): PartingBreakdown => ({
  episodes: 0,
  parted: 0,
  ...(Object.fromEntries(DIVERGENCE_REASONS.map((r) => [r, 0])) as Record<DivergenceReason, number>),
});
const share = (n: number, of: number) => (of === 0 ? 0 : n / of);
const tidy = (x: number) => Math.round(x * 1e9) / 1e9;

/**
 * The summary of "where the model is gamed" under a filter. SQLite aggregates each episode (episodeFigures); the
 * first parting steps need the step view's word-level judgement, so the episodes are read in pages of
 * SUMMARY_PAGE, in id order, one candidate step per episode at a time (firstPartings): memory stays bounded however
 * many synthetic steps the run holds. Null when the filter names a run that does not exist.
 */
export async function gamedSummary(
  db: Db,
  filter: GamedFilter,
  pageSize = SUMMARY_PAGE,
): Promise<GamedSummary | null> {
  let run: GamedRun | null = null;
  if (filter.runId) {
    const row = await db.run.findUnique({
      where: { id: filter.runId },
      select: { id: true, name: true, method: true, domain: true, status: true },
    });
    if (!row) return null;
    run = { ...row, synthetic: isRunMethod(row.method) && hasPhase(row.method, "synthetic") };
  }
  const where = filterWhere(filter);
  const totals = { episodes: 0, ranked: 0, gamed: 0, synthetic: 0, real: 0, syntheticOk: 0, realOk: 0 };
  let realEndedFirst = 0;
  const parting = { all: emptyBreakdown(), gamed: emptyBreakdown() };
  let after = "";
  for (;;) {
    const ids = (
      await db.$queryRaw<{ id: string }[]>(
        Prisma.sql`SELECT t.id FROM "Trajectory" t WHERE ${where} AND t.id > ${after} ORDER BY t.id LIMIT ${pageSize}`,
      )
    ).map((r) => r.id);
    if (ids.length === 0) break;
    after = ids[ids.length - 1] as string;
    totals.episodes += ids.length;
    const [rows, partings] = await Promise.all([
      db.$queryRaw<FiguresRow[]>(figuresQuery(Prisma.sql`t.id IN (${Prisma.join(ids)})`, Prisma.empty)),
      firstPartings(db, ids),
    ]);
    for (const f of rows.map(figuresOf)) {
      totals.ranked++;
      totals.synthetic += f.syntheticReturn;
      totals.real += f.realReturn;
      if (f.syntheticSuccess) totals.syntheticOk++;
      if (f.realSuccess) totals.realOk++;
      if (f.gamed) totals.gamed++;
      if (f.realEndedAt !== null && f.realEndedAt < f.length - 1) realEndedFirst++;
      const p = partings.get(f.id);
      for (const breakdown of f.gamed ? [parting.all, parting.gamed] : [parting.all]) {
        breakdown.episodes++;
        if (!p) continue;
        breakdown.parted++;
        for (const reason of DIVERGENCE_REASONS) if (p[reason]) breakdown[reason]++;
      }
    }
    if (ids.length < pageSize) break;
  }
  const { ranked } = totals;
  return {
    run,
    episodes: totals.episodes,
    ranked,
    unanswered: totals.episodes - ranked,
    gamed: totals.gamed,
    gamedShare: share(totals.gamed, ranked),
    syntheticSuccessRate: share(totals.syntheticOk, ranked),
    realSuccessRate: share(totals.realOk, ranked),
    meanSyntheticReturn: tidy(share(totals.synthetic, ranked)),
    meanRealReturn: tidy(share(totals.real, ranked)),
    meanExcess: tidy(share(totals.synthetic - totals.real, ranked)),
    realEndedFirst,
    parting,
  };
}
