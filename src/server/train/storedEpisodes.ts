import type { StoredEpisode } from "@/core/train/bufferTransitions";
import type { Step } from "@/core/types";
import { TrajectorySource } from "@/shared/enums";
import type { Db } from "../db";
import { queryUnsafe } from "../sql/dialect";

interface Row {
  trajectoryId: string;
  iteration: number | bigint;
  source: string;
  group: number | bigint | null;
  taskId: string;
  domain: string;
  instruction: string;
  index: number | bigint;
  state: string;
  stateActions: unknown;
  action: string;
  reasoning: string | null;
  nextState: string;
  nextActions: unknown;
  reward: number;
  done: boolean | number;
  success: boolean | number;
  valid: boolean | number;
}

const json = (value: unknown): unknown => (typeof value === "string" ? JSON.parse(value) : value);

function actions(value: unknown, where: string): string[] | undefined {
  const parsed = json(value);
  if (parsed === null || parsed === undefined) return undefined;
  if (!Array.isArray(parsed) || parsed.some((a) => typeof a !== "string"))
    throw new Error(`${where}: actions must be an array of strings`);
  return parsed as string[];
}

/**
 * A run's train episodes of its first `upTo` iterations as stored, for a resumed run to rebuild its replay buffer
 * (core/train/bufferTransitions.ts restoreBuffer). The order of the rows does not matter: core sorts them.
 */
export async function storedEpisodes(db: Db, runId: string, upTo: number): Promise<StoredEpisode[]> {
  const rows = await queryUnsafe<Row[]>(
    db,
    `SELECT t.id AS "trajectoryId", t.iteration, t.source, t."group", t."taskId", t.domain, k.instruction,
       s."index", s.state, s."stateActions", s.action, s.reasoning, s."nextState", s."nextActions", s.reward,
       s.done, s.success, s.valid
     FROM "Step" s JOIN "Trajectory" t ON t.id = s."trajectoryId" JOIN "Task" k ON k.id = t."taskId"
     WHERE t."runId" = ? AND t.purpose = 'train' AND t.iteration <= ?`,
    runId,
    upTo,
  );
  const episodes = new Map<string, StoredEpisode & { indexed: [number, Step][] }>();
  for (const r of rows) {
    const where = `run ${runId}, trajectory ${r.trajectoryId}, step ${r.index}`;
    const source = TrajectorySource.safeParse(r.source);
    if (!source.success) throw new Error(`${where}: unknown source "${r.source}"`);
    if (r.group === null) throw new Error(`${where}: a run's rollout without its place in its group`);
    let episode = episodes.get(r.trajectoryId);
    if (!episode) {
      episode = {
        iteration: Number(r.iteration),
        source: source.data,
        task: { id: r.taskId, domain: r.domain, instruction: r.instruction },
        group: Number(r.group),
        steps: [],
        indexed: [],
      };
      episodes.set(r.trajectoryId, episode);
    }
    const state = actions(r.stateActions, where);
    const next = actions(r.nextActions, where);
    episode.indexed.push([
      Number(r.index),
      {
        state: { text: r.state, ...(state ? { actions: state } : {}) },
        action: r.action,
        ...(r.reasoning !== null ? { reasoning: r.reasoning } : {}),
        next: { text: r.nextState, ...(next ? { actions: next } : {}) },
        reward: Number(r.reward),
        done: Boolean(r.done),
        success: Boolean(r.success),
        valid: Boolean(r.valid),
      },
    ]);
  }
  return [...episodes.values()].map(({ indexed, ...episode }) => ({
    ...episode,
    steps: indexed.sort((a, b) => a[0] - b[0]).map(([, step]) => step),
  }));
}
