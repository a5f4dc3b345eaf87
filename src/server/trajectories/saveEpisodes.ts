import { randomUUID } from "node:crypto";
import type { Episode } from "@/core/rollout";
import type { StepResult, Task, TrajectorySource } from "@/core/types";
import type { TrajectoryPurpose } from "@/shared/enums";
import { bulkInsert, bulkTransaction } from "../bulkInsert";
import type { Db } from "../db";
import type { Fence } from "../queue/fence";
import { waitForDeletions } from "../sql/dialect";
import { insertSteps, type StepRow } from "./insertSteps";
import { offlineStepId } from "./offlineIds";

export interface EpisodeMeta {
  source: TrajectorySource;
  policy: string;
  purpose?: TrajectoryPurpose;
  runId?: string;
  iteration?: number;
  group?: number;
  /**
   * Trajectory ids, one per episode, derived from the episodes' provenance (offline data, see offlineIds.ts);
   * their steps' ids follow from them. An episode whose id is already stored is the same data again and is
   * skipped. Random ids when absent.
   */
  ids?: readonly string[];
  /** The writing job's fencing check: the batch commits only while the job is still this worker's. */
  fence?: Fence;
}

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/**
 * Task rows, created once (tasks are immutable once written: their ids are stable). Parents go before their
 * variations so that the lineage key holds; a run's curriculum variations carry the run's id. Runs inside the
 * transaction that then references the tasks: a deletion that removes a task (deleteRun.ts, deleteImport.ts) holds
 * the write lock, so this either sees the task gone and writes it again, or keeps it referenced from the same commit.
 */
export async function ensureTasks(tx: Tx, tasks: readonly Task[], runId?: string): Promise<void> {
  const unique = new Map(tasks.map((t) => [t.id, t]));
  if (unique.size === 0) return;
  await waitForDeletions(tx);
  const known = new Set(
    (await tx.task.findMany({ where: { id: { in: [...unique.keys()] } }, select: { id: true } })).map(
      (t) => t.id,
    ),
  );
  const missing = [...unique.values()]
    .filter((t) => !known.has(t.id))
    .sort((a, b) => (a.generation ?? 0) - (b.generation ?? 0));
  if (missing.length === 0) return;
  await tx.task.createMany({
    data: missing.map((t) => taskRow(t, runId)),
  });
}

const str = (v: unknown) => (typeof v === "string" ? v : null);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** A task's database row; a generated task belongs to the run that wrote it. */
export function taskRow(t: Task, runId?: string | null) {
  return {
    id: t.id,
    domain: t.domain,
    instruction: t.instruction,
    split: t.split,
    origin: t.origin,
    goal: (t.goal ?? undefined) as object | undefined,
    parentId: t.parentId ?? null,
    generation: t.generation ?? 0,
    runId: t.origin === "generated" ? (runId ?? null) : null,
  };
}

function confidenceParts(v: unknown): Record<string, number> | null {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
  const parts = Object.entries(v).filter((e): e is [string, number] => typeof e[1] === "number");
  return parts.length ? Object.fromEntries(parts) : null;
}

/** What a synthetic step's info says about how it was made (SyntheticStepInfo), as Step columns. */
export function auditFields(info: Record<string, unknown> | undefined): Partial<StepRow> {
  if (!info) return {};
  const ids = Array.isArray(info.demonstrationIds)
    ? info.demonstrationIds.filter((x): x is string => typeof x === "string")
    : null;
  return {
    model: str(info.model),
    latencyMs: num(info.latencyMs),
    promptTokens: num(info.promptTokens),
    completionTokens: num(info.completionTokens),
    raw: str(info.raw),
    parseError: str(info.modelError),
    neighbourIds: ids,
    confidence: num(info.confidence),
    confidenceParts: confidenceParts(info.confidenceParts),
    pessimism: str(info.pessimism),
    predictedReward: num(info.predictedReward),
  };
}

export function realFields(answer: StepResult | undefined): Partial<StepRow> {
  if (!answer) return {};
  return {
    realNextState: answer.observation.text,
    realReward: answer.reward,
    realDone: answer.done,
    realValid: answer.valid,
  };
}

/** The Trajectory columns saveEpisodes writes (bulk, as insertSteps does: a run writes one per rollout). */
const TRAJECTORY_COLUMNS = [
  "id",
  "taskId",
  "domain",
  "source",
  "purpose",
  "policy",
  "runId",
  "iteration",
  "group",
  "totalReward",
  "success",
  "length",
  "createdAt",
] as const;

/**
 * Writes a batch of episodes in one transaction: a batch is either all there or not at all. Two bulk inserts
 * (trajectories, then steps) instead of nested creates: collection writes tens of thousands of steps. Returns
 * the ids of the trajectories written (those given in `meta.ids` and already stored are not).
 */
export async function saveEpisodes(
  db: Db,
  episodes: Episode[],
  meta: EpisodeMeta,
  /** Per episode, per step: the real environment's answer to the same actions (synthetic episodes). */
  real?: (StepResult | undefined)[][],
): Promise<string[]> {
  if (episodes.length === 0) return [];
  const rows = episodeRows(episodes, meta, real);
  return bulkTransaction(db, async (tx) => {
    await meta.fence?.(tx);
    await ensureTasks(
      tx,
      episodes.map((e) => e.task),
      meta.runId,
    );
    const stored = meta.ids
      ? new Set(
          (await tx.trajectory.findMany({ where: { id: { in: rows.ids } }, select: { id: true } })).map(
            (t) => t.id,
          ),
        )
      : new Set<string>();
    const fresh = new Set(rows.ids.filter((id) => !stored.has(id)));
    await insertEpisodeRows(tx, {
      ids: [...fresh],
      trajectories: rows.trajectories.filter((t) => fresh.has(t.id)),
      steps: rows.steps.filter((s) => fresh.has(s.trajectoryId)),
    });
    return [...fresh];
  });
}

/** A batch of episodes as the rows saveEpisodes writes: pure, so a writer can build them before its transaction. */
export interface EpisodeRows {
  ids: string[];
  trajectories: TrajectoryRow[];
  steps: StepRow[];
}

interface TrajectoryRow {
  id: string;
  taskId: string;
  domain: string;
  source: TrajectorySource;
  purpose: TrajectoryPurpose;
  policy: string;
  runId: string | null;
  iteration: number | null;
  group: number | null;
  totalReward: number;
  success: boolean;
  length: number;
}

export function episodeRows(
  episodes: Episode[],
  meta: EpisodeMeta,
  real?: (StepResult | undefined)[][],
): EpisodeRows {
  if (meta.ids && meta.ids.length !== episodes.length) {
    throw new Error(`saveEpisodes: ${episodes.length} episodes but ${meta.ids.length} ids`);
  }
  const ids = meta.ids ? [...meta.ids] : episodes.map(() => randomUUID());
  // A run's rollouts of one task form its GRPO group: number them within the task, not across the batch.
  const seen = new Map<string, number>();
  const groupIndex = episodes.map((e) => {
    const n = seen.get(e.task.id) ?? 0;
    seen.set(e.task.id, n + 1);
    return n;
  });
  const trajectories = episodes.map(
    (episode, i): TrajectoryRow => ({
      id: ids[i] as string,
      taskId: episode.task.id,
      domain: episode.task.domain,
      source: meta.source,
      purpose: meta.purpose ?? "data",
      policy: meta.policy,
      runId: meta.runId ?? null,
      iteration: meta.iteration ?? null,
      group: meta.group ?? (meta.runId ? (groupIndex[i] as number) : null),
      totalReward: episode.totalReward,
      success: episode.success,
      length: episode.steps.length,
    }),
  );
  const steps = episodes.flatMap((episode, i) =>
    episode.steps.map(
      (s, index): StepRow => ({
        ...(meta.ids ? { id: offlineStepId(ids[i] as string, index) } : {}),
        trajectoryId: ids[i] as string,
        index,
        state: s.state.text,
        stateActions: s.state.actions ?? null,
        action: s.action,
        reasoning: s.reasoning ?? null,
        nextState: s.next.text,
        nextActions: s.next.actions ?? null,
        reward: s.reward,
        done: s.done,
        success: s.success,
        valid: s.valid,
        ...auditFields(episode.infos[index]),
        ...realFields(real?.[i]?.[index]),
      }),
    ),
  );
  return { ids, trajectories, steps };
}

/** Inserts rows from episodeRows, inside the caller's transaction (their tasks must be stored already). */
export async function insertEpisodeRows(tx: Pick<Db, "$executeRawUnsafe">, rows: EpisodeRows): Promise<void> {
  const now = new Date();
  await bulkInsert(
    tx,
    "Trajectory",
    TRAJECTORY_COLUMNS,
    rows.trajectories.map((t) => [
      t.id,
      t.taskId,
      t.domain,
      t.source,
      t.purpose,
      t.policy,
      t.runId,
      t.iteration,
      t.group,
      t.totalReward,
      t.success,
      t.length,
      now,
    ]),
  );
  await insertSteps(tx, rows.steps);
}
