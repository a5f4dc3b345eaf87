import { REWARD_TOLERANCE } from "@/core/experience/fidelity";
import { Prisma } from "@/generated/prisma/client";
import { actionList, type DivergenceReason, divergence } from "@/shared/divergence";
import type { Db } from "../db";

/**
 * The first step where a synthetic episode and the real replay of its actions part in a way that matters, and
 * how they differ there (shared/divergence: the elements, the choices on offer, the reward, the end, validity).
 */
export type Parting = { index: number } & Record<DivergenceReason, boolean>;

interface CandidateRow {
  trajectoryId: string;
  index: number | bigint;
  nextState: string;
  nextActions: unknown;
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
/** A JSON column as raw SQL returns it: text on SQLite, parsed on PostgreSQL. */
const jsonOf = (v: unknown): unknown => {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v);
  } catch {
    return undefined;
  }
};

/** Might this step differ? False only where texts, rewards and flags are identical (identical texts have the same
 * elements and offer the same choices); divergence decides the rest. */
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
    SELECT s."trajectoryId", s."index", s."nextState", s."nextActions", s.reward, s.done, s.valid, s."realNextState",
      s."realReward", s."realDone", s."realValid"
    FROM first JOIN "Step" s ON s."trajectoryId" = first.tid AND s."index" = first.idx`;
}

/**
 * For each episode, the first step whose prediction departs from the real answer in a way that matters, judged
 * by shared/divergence as the step view's verdictOf judges it, so that "parts at step N" is the step the step
 * view marks. An episode that never parts has no entry. A round reads one candidate per episode still open
 * (nextCandidates); a candidate whose texts differ only cosmetically (case, spacing, the order of unchanged
 * elements) is no parting, and its episode goes on to the next round. Call with a bounded page of ids.
 */
export async function firstPartings(db: Db, trajectoryIds: readonly string[]): Promise<Map<string, Parting>> {
  const partings = new Map<string, Parting>();
  let open = new Map(trajectoryIds.map((id) => [id, -1]));
  while (open.size > 0) {
    const rows = await nextCandidates(db, open);
    const next = new Map<string, number>();
    for (const row of rows) {
      const index = Number(row.index);
      const d = divergence(
        {
          text: row.nextState,
          actions: actionList(jsonOf(row.nextActions)),
          reward: row.reward,
          done: bool(row.done),
          valid: bool(row.valid),
        },
        {
          text: row.realNextState,
          reward: row.realReward,
          done: boolOrNull(row.realDone) ?? bool(row.done),
          valid: boolOrNull(row.realValid) ?? bool(row.valid),
        },
      );
      if (d.any)
        partings.set(row.trajectoryId, {
          index,
          elements: d.elements,
          choices: d.choices,
          reward: d.reward,
          end: d.end,
          validity: d.validity,
        });
      else next.set(row.trajectoryId, index);
    }
    open = next;
  }
  return partings;
}
