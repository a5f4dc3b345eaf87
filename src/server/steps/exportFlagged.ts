import { FLAG_CATEGORY_LABELS, FlagCategory } from "@/shared/enums";
import type { FlaggedFilter } from "@/shared/flaggedFilter";
import type { Db } from "../db";
import { flaggedWhere } from "./flags";

/**
 * One flagged synthetic step as a regression case for the experience model: what it was given (the task, the
 * steps before, the state and the action), what it predicted, what the real environment answered where that is
 * known, and the researcher's verdict (category, note, author).
 */
export interface RegressionCase {
  stepId: string;
  trajectoryId: string;
  domain: string;
  runId: string | null;
  run: string | null;
  iteration: number | null;
  stepIndex: number;
  instruction: string;
  /** The episode's earlier steps, oldest first, as the model's history. */
  history: { state: string; action: string }[];
  state: string;
  action: string;
  model: string | null;
  predicted: { reasoning: string | null; nextState: string; reward: number; done: boolean; valid: boolean };
  /** The real environment's answer to the same history and action; null where the domain has none. */
  real: { nextState: string; reward: number; done: boolean | null; valid: boolean | null } | null;
  category: FlagCategory | null;
  categoryLabel: string | null;
  note: string | null;
  author: string | null;
  flaggedAt: string | null;
}

/** The flagged steps a filter selects, oldest flag first, as regression cases. */
export async function flaggedRegressionCases(db: Db, filter: FlaggedFilter): Promise<RegressionCase[]> {
  const steps = await db.step.findMany({
    where: flaggedWhere(filter),
    orderBy: [{ flaggedAt: "asc" }, { id: "asc" }],
    include: {
      trajectory: {
        select: {
          id: true,
          domain: true,
          runId: true,
          iteration: true,
          run: { select: { name: true } },
          task: { select: { instruction: true } },
        },
      },
    },
  });
  const earlier = await db.step.findMany({
    where: { trajectoryId: { in: [...new Set(steps.map((s) => s.trajectoryId))] } },
    orderBy: [{ trajectoryId: "asc" }, { index: "asc" }],
    select: { trajectoryId: true, index: true, state: true, action: true },
  });
  const episodes = new Map<string, typeof earlier>();
  for (const s of earlier) {
    const list = episodes.get(s.trajectoryId) ?? [];
    list.push(s);
    episodes.set(s.trajectoryId, list);
  }
  return steps.map((s) => {
    const category = FlagCategory.safeParse(s.flagCategory);
    return {
      stepId: s.id,
      trajectoryId: s.trajectoryId,
      domain: s.trajectory.domain,
      runId: s.trajectory.runId,
      run: s.trajectory.run?.name ?? null,
      iteration: s.trajectory.iteration,
      stepIndex: s.index,
      instruction: s.trajectory.task.instruction,
      history: (episodes.get(s.trajectoryId) ?? [])
        .filter((e) => e.index < s.index)
        .map((e) => ({ state: e.state, action: e.action })),
      state: s.state,
      action: s.action,
      model: s.model,
      predicted: {
        reasoning: s.reasoning,
        nextState: s.nextState,
        reward: s.reward,
        done: s.done,
        valid: s.valid,
      },
      real:
        s.realNextState !== null && s.realReward !== null
          ? { nextState: s.realNextState, reward: s.realReward, done: s.realDone, valid: s.realValid }
          : null,
      category: category.success ? category.data : null,
      categoryLabel: category.success ? FLAG_CATEGORY_LABELS[category.data] : null,
      note: s.flagNote,
      author: s.flagAuthor,
      flaggedAt: s.flaggedAt?.toISOString() ?? null,
    };
  });
}

/** The regression cases as JSONL, one line per flagged step. */
export async function exportFlaggedJsonl(
  db: Db,
  filter: FlaggedFilter,
): Promise<{ jsonl: string; records: number }> {
  const cases = await flaggedRegressionCases(db, filter);
  return { jsonl: cases.map((c) => `${JSON.stringify(c)}\n`).join(""), records: cases.length };
}

/** A file name that says what is in the file. */
export function flaggedExportFileName(filter: FlaggedFilter, now = new Date()): string {
  const parts = ["dreamgym-flagged"];
  for (const value of [filter.domain, filter.category, filter.author, filter.runId])
    if (value) parts.push(value);
  parts.push(now.toISOString().slice(0, 10));
  return `${parts.join("-").replace(/[^A-Za-z0-9._-]+/g, "_")}.jsonl`;
}
