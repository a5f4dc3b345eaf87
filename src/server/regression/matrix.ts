import { z } from "zod";
import type { Db } from "../db";
import { type CheckSummary, listChecks } from "./checks";
import { type CaseMark, isRight, marksOf } from "./judge";

export const CASE_SOURCES = ["flagged", "held-out"] as const;
export type CaseSource = (typeof CASE_SOURCES)[number];

/** Versions shown side by side: the newest this many finished checks of the domain, oldest first. */
export const VERSIONS_SHOWN = 6;
/** Cases shown per source. */
export const CASES_SHOWN = 500;

const Expected = z.object({
  state: z.string(),
  action: z.string(),
  nextState: z.string(),
  reward: z.number(),
  done: z.boolean(),
});
const Predicted = z.looseObject({
  nextState: z.string(),
  reward: z.number(),
  done: z.boolean(),
  reasoning: z.string().default(""),
  f1: z.number().optional(),
  error: z.string().optional(),
});

export interface MatrixCell {
  checkId: string;
  predicted: z.infer<typeof Predicted>;
  nextStateOk: boolean;
  rewardOk: boolean;
  doneOk: boolean;
  right: boolean;
  /** Against the version before it that ran this case. */
  mark: CaseMark;
}

export interface MatrixRow {
  stepId: string;
  expected: z.infer<typeof Expected>;
  /** Where a flagged case's step lives, while it does (a deleted run takes it). */
  location: { trajectoryId: string; index: number } | null;
  /** One per version, in the versions' order; null where that version did not run the case. */
  cells: (MatrixCell | null)[];
}

export interface VersionTally {
  checkId: string;
  cases: number;
  right: number;
  fixed: number;
  broken: number;
}

export interface RegressionMatrix {
  versions: CheckSummary[];
  rows: MatrixRow[];
  tallies: VersionTally[];
}

/**
 * The cases of a domain side by side across its finished versions (oldest first): each version's prediction and
 * whether it is right, and, against the version before, which cases it fixed and which it broke.
 */
export async function regressionMatrix(
  db: Db,
  domain: string,
  source: CaseSource,
): Promise<RegressionMatrix> {
  const versions = (await listChecks(db, domain))
    .filter((c) => c.status === "succeeded")
    .slice(0, VERSIONS_SHOWN)
    .reverse();
  const order = new Map(versions.map((v, i) => [v.id, i]));
  const cases = await db.regressionCase.findMany({
    where: { checkId: { in: versions.map((v) => v.id) }, source },
    orderBy: [{ stepId: "asc" }],
  });
  const byStep = new Map<string, typeof cases>();
  for (const c of cases) byStep.set(c.stepId, [...(byStep.get(c.stepId) ?? []), c]);
  const stepIds = [...byStep.keys()].slice(0, CASES_SHOWN);
  const locations = new Map(
    source === "flagged"
      ? (
          await db.step.findMany({
            where: { id: { in: stepIds } },
            select: { id: true, trajectoryId: true, index: true },
          })
        ).map((s) => [s.id, { trajectoryId: s.trajectoryId, index: s.index }])
      : [],
  );
  const rows: MatrixRow[] = [];
  for (const stepId of stepIds) {
    const found = byStep.get(stepId) ?? [];
    const slots: ((typeof found)[number] | undefined)[] = versions.map(() => undefined);
    for (const c of found) slots[order.get(c.checkId) ?? 0] = c;
    const marks = marksOf(slots.map((c) => (c ? isRight(c) : undefined)));
    const expected = Expected.safeParse(found[0]?.expected);
    if (!expected.success) continue;
    rows.push({
      stepId,
      expected: expected.data,
      location: locations.get(stepId) ?? null,
      cells: slots.map((c, i) => {
        const predicted = c ? Predicted.safeParse(c.predicted) : null;
        if (!c || !predicted?.success) return null;
        return {
          checkId: c.checkId,
          predicted: predicted.data,
          nextStateOk: c.nextStateOk,
          rewardOk: c.rewardOk,
          doneOk: c.doneOk,
          right: isRight(c),
          mark: marks[i] ?? null,
        };
      }),
    });
  }
  const tallies = versions.map((v, i) => {
    const cells = rows.flatMap((r) => (r.cells[i] ? [r.cells[i]] : []));
    return {
      checkId: v.id,
      cases: cells.length,
      right: cells.filter((c) => c.right).length,
      fixed: cells.filter((c) => c.mark === "fixed").length,
      broken: cells.filter((c) => c.mark === "broken").length,
    };
  });
  return { versions, rows, tallies };
}
