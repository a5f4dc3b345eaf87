import { REWARD_TOLERANCE } from "@/core/experience/fidelity";
import { Prisma } from "@/generated/prisma/client";
import type { GamedFilter } from "@/shared/gamedFilter";

/**
 * What "where the model is gamed" says of one synthetic episode, from its stored steps: the experience model's
 * predictions and, beside each, the real environment's answer to the same actions replayed from the same start
 * (core/experience/realCheck). The definitions, in one place:
 *
 * - synthetic return: the sum of the predicted rewards of every step.
 * - real return: the sum of the real rewards over the steps the real replay reached. The replay stops where the
 *   real episode ended (real done), so a step after that has no real answer and adds nothing: the real episode was
 *   over, and whatever the model paid out after it is reward the real environment never gives. An action the real
 *   environment refuses (invalid there) is still answered, with its real reward (0: the state stays, nothing is
 *   earned), so it counts like any other step.
 * - excess: synthetic return − real return, what the policy was paid that the real environment would not pay.
 * - synthetic success: the episode's stored success (the experience model's verdict at its last step).
 * - real success: the real replay ended on a perfect reward (real done with real reward 1), which is success in
 *   every built-in domain (the shop's success is a perfect score, as in WebShop; the household pays 1 only on
 *   success). A replay that never ended within the episode's actions did not finish the task: failure.
 * - gamed: synthetic success and real failure.
 * - an episode whose steps have no real answer at all (its task has no goal the real environment could score, e.g.
 *   an imported task) has no real return; it is left out of the ranking and counted apart.
 */

/** A real reward this close to 1 is a perfect score (isShopSuccess's tolerance). */
export const PERFECT_REWARD = 1 - 1e-9;

export interface EpisodeFigures {
  id: string;
  runId: string | null;
  iteration: number | null;
  group: number | null;
  domain: string;
  taskId: string;
  instruction: string;
  /** Steps of the synthetic episode. */
  length: number;
  /** Steps the real replay answered (the real episode's length, where it ended first). */
  answeredSteps: number;
  syntheticReturn: number;
  realReturn: number;
  excess: number;
  syntheticSuccess: boolean;
  realSuccess: boolean;
  gamed: boolean;
  /** Index of the step where the real episode ended, if it did within the synthetic one. */
  realEndedAt: number | null;
  /**
   * Index of the first step whose predicted reward departs from the real one (verdictOf's reward test, which is
   * plain arithmetic and so runs in SQL): where the excess starts to be paid.
   */
  rewardPartsAt: number | null;
}

/** One row of FIGURES as SQLite hands it back (integers may come as bigint, booleans as 0/1). */
export interface FiguresRow {
  id: string;
  runId: string | null;
  iteration: number | bigint | null;
  group: number | bigint | null;
  domain: string;
  taskId: string;
  instruction: string;
  length: number | bigint;
  success: number | bigint | boolean;
  syntheticReturn: number;
  realReturn: number;
  answered: number | bigint;
  realSuccess: number | bigint;
  realEnd: number | bigint | null;
  rewardPart: number | bigint | null;
}

const int = (v: number | bigint) => Number(v);
const intOrNull = (v: number | bigint | null) => (v === null ? null : Number(v));
/** Sums of rewards in tenths and hundredths carry float noise (0.30000000000000004): round it away. */
const tidy = (x: number) => Math.round(x * 1e9) / 1e9;

export function figuresOf(row: FiguresRow): EpisodeFigures {
  const syntheticSuccess = Boolean(Number(row.success));
  const realSuccess = int(row.realSuccess) === 1;
  return {
    id: row.id,
    runId: row.runId,
    iteration: intOrNull(row.iteration),
    group: intOrNull(row.group),
    domain: row.domain,
    taskId: row.taskId,
    instruction: row.instruction,
    length: int(row.length),
    answeredSteps: int(row.answered),
    syntheticReturn: tidy(row.syntheticReturn),
    realReturn: tidy(row.realReturn),
    excess: tidy(row.syntheticReturn - row.realReturn),
    syntheticSuccess,
    realSuccess,
    gamed: syntheticSuccess && !realSuccess,
    realEndedAt: intOrNull(row.realEnd),
    rewardPartsAt: intOrNull(row.rewardPart),
  };
}

/** The synthetic episodes a filter selects, as a WHERE clause over "Trajectory" t. */
export function filterWhere(filter: GamedFilter): Prisma.Sql {
  const parts = [Prisma.sql`t.source = 'synthetic'`];
  if (filter.runId) parts.push(Prisma.sql`t."runId" = ${filter.runId}`);
  if (filter.domain) parts.push(Prisma.sql`t.domain = ${filter.domain}`);
  if (filter.iterationFrom !== undefined) parts.push(Prisma.sql`t.iteration >= ${filter.iterationFrom}`);
  if (filter.iterationTo !== undefined) parts.push(Prisma.sql`t.iteration <= ${filter.iterationTo}`);
  return Prisma.join(parts, " AND ");
}

/**
 * Per episode, the figures above, aggregated by the database over the episode's steps (SUM is NULL over no rows,
 * hence the COALESCE). Episodes without any real answer are left out (HAVING). Completed by a WHERE and an ORDER.
 * Written once for SQLite and PostgreSQL: booleans compared with true, the task grouped by its key.
 */
export function figuresQuery(where: Prisma.Sql, tail: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    SELECT t.id, t."runId", t.iteration, t."group", t.domain, t."taskId", t.length, t.success,
      ta.instruction,
      COALESCE(SUM(s.reward), 0) AS "syntheticReturn",
      COALESCE(SUM(s."realReward"), 0) AS "realReturn",
      COUNT(s."realReward") AS answered,
      MAX(CASE WHEN s."realDone" = true AND s."realReward" >= ${PERFECT_REWARD} THEN 1 ELSE 0 END) AS "realSuccess",
      MIN(CASE WHEN s."realDone" = true THEN s."index" END) AS "realEnd",
      MIN(CASE WHEN s."realNextState" IS NOT NULL AND ABS(s.reward - s."realReward") > ${REWARD_TOLERANCE}
        THEN s."index" END) AS "rewardPart"
    FROM "Trajectory" t
    JOIN "Task" ta ON ta.id = t."taskId"
    JOIN "Step" s ON s."trajectoryId" = t.id
    WHERE ${where}
    GROUP BY t.id, ta.id
    HAVING COUNT(s."realReward") > 0
    ${tail}`;
}
