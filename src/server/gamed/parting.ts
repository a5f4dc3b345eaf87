import { REWARD_TOLERANCE } from "@/core/experience/fidelity";
import { Prisma } from "@/generated/prisma/client";
import { verdictOf } from "@/shared/realAnswer";
import type { Db } from "../db";

/** The first step where a synthetic episode and the real replay of its actions part, and how they differ there. */
export interface Parting {
  index: number;
  state: boolean;
  reward: boolean;
  done: boolean;
  valid: boolean;
}

interface CandidateRow {
  trajectoryId: string;
  index: number | bigint;
  nextState: string;
  reward: number;
  done: number | bigint | boolean;
  valid: number | bigint | boolean;
  realNextState: string;
  realReward: number;
  realDone: number | bigint | boolean | null;
  realValid: number | bigint | boolean | null;
}

const bool = (v: number | bigint | boolean) => Boolean(Number(v));
const boolOrNull = (v: number | bigint | boolean | null) => (v === null ? null : bool(v));

/** Might this step differ? False only where texts, rewards and flags are identical (identical texts are an exact
 * match whatever the normalisation); verdictOf decides the rest word by word. */
const MIGHT_DIFFER = Prisma.sql`s."realNextState" IS NOT NULL AND s."realReward" IS NOT NULL
  AND (s."nextState" <> s."realNextState"
    OR ABS(s.reward - s."realReward") > ${REWARD_TOLERANCE}
    OR s.done <> COALESCE(s."realDone", s.done)
    OR s.valid <> COALESCE(s."realValid", s.valid))`;

/**
 * For each episode, the first step after `after` (an index) that might differ. SQLite walks each episode's steps
 * in order and stops at the first (LIMIT 1 on the (trajectoryId, index) key), so one row per episode is read and
 * returned, however long the episode.
 */
function nextCandidates(db: Db, after: ReadonlyMap<string, number>): Promise<CandidateRow[]> {
  // The index typed, for PostgreSQL (a bare parameter in VALUES would be text there).
  const pairs = [...after].map(([id, index]) => Prisma.sql`(${id}, CAST(${index} AS INTEGER))`);
  return db.$queryRaw<CandidateRow[]>`
    WITH after(tid, idx) AS (VALUES ${Prisma.join(pairs)}),
    first(tid, idx) AS (
      SELECT tid, (SELECT s."index" FROM "Step" s
        WHERE s."trajectoryId" = after.tid AND s."index" > after.idx AND ${MIGHT_DIFFER}
        ORDER BY s."index" LIMIT 1)
      FROM after
    )
    SELECT s."trajectoryId", s."index", s."nextState", s.reward, s.done, s.valid, s."realNextState",
      s."realReward", s."realDone", s."realValid"
    FROM first JOIN "Step" s ON s."trajectoryId" = first.tid AND s."index" = first.idx`;
}

/**
 * For each episode, the first step whose prediction departs from the real answer, judged by verdictOf, the step
 * view's own judgement, so that "parts at step N" is the step the step view marks. An episode that never parts
 * has no entry. A round reads one candidate per episode still open (nextCandidates); a candidate whose texts
 * differ only in case or spacing is no parting, and its episode goes on to the next round. Call with a bounded
 * page of ids.
 */
export async function firstPartings(db: Db, trajectoryIds: readonly string[]): Promise<Map<string, Parting>> {
  const partings = new Map<string, Parting>();
  let open = new Map(trajectoryIds.map((id) => [id, -1]));
  while (open.size > 0) {
    const rows = await nextCandidates(db, open);
    const next = new Map<string, number>();
    for (const row of rows) {
      const index = Number(row.index);
      const verdict = verdictOf({
        nextState: row.nextState,
        reward: row.reward,
        done: bool(row.done),
        valid: bool(row.valid),
        realNextState: row.realNextState,
        realReward: row.realReward,
        realDone: boolOrNull(row.realDone),
        realValid: boolOrNull(row.realValid),
      });
      if (verdict?.any)
        partings.set(row.trajectoryId, {
          index,
          state: verdict.state,
          reward: verdict.reward,
          done: verdict.done,
          valid: verdict.valid,
        });
      else next.set(row.trajectoryId, index);
    }
    open = next;
  }
  return partings;
}
