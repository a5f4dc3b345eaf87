import { randomUUID } from "node:crypto";
import { bulkInsert, type SqlValue } from "../bulkInsert";
import type { Db } from "../db";

type Executor = Pick<Db, "$executeRawUnsafe">;

/** A Step row as the hot write paths produce it; optional fields are stored as NULL. */
export interface StepRow {
  id?: string;
  trajectoryId: string;
  index: number;
  state: string;
  stateActions?: string[] | null;
  action: string;
  reasoning?: string | null;
  nextState: string;
  nextActions?: string[] | null;
  reward: number;
  done: boolean;
  success: boolean;
  valid: boolean;
  realNextState?: string | null;
  realReward?: number | null;
  realDone?: boolean | null;
  realValid?: boolean | null;
  neighbourIds?: string[] | null;
  model?: string | null;
  latencyMs?: number | null;
  promptTokens?: number | null;
  completionTokens?: number | null;
  raw?: string | null;
  parseError?: string | null;
  confidence?: number | null;
  confidenceParts?: Record<string, number> | null;
  pessimism?: string | null;
  predictedReward?: number | null;
  /** An external trainer's log-probability of the action, and the tokens its policy generated for it. */
  logprob?: number | null;
  agentTokens?: number | null;
}

const COLUMNS = [
  "id",
  "trajectoryId",
  "index",
  "state",
  "stateActions",
  "action",
  "reasoning",
  "nextState",
  "nextActions",
  "reward",
  "done",
  "success",
  "valid",
  "realNextState",
  "realReward",
  "realDone",
  "realValid",
  "neighbourIds",
  "model",
  "latencyMs",
  "promptTokens",
  "completionTokens",
  "raw",
  "parseError",
  "confidence",
  "confidenceParts",
  "pessimism",
  "predictedReward",
  "logprob",
  "agentTokens",
  "createdAt",
] as const;

/** Inserts steps in bulk (see bulkInsert for why not createMany); returns their ids. */
export async function insertSteps(db: Executor, rows: readonly StepRow[]): Promise<string[]> {
  const now = new Date();
  const ids = rows.map((r) => r.id ?? randomUUID());
  const values = rows.map((r, i): SqlValue[] => [
    ids[i] as string,
    r.trajectoryId,
    r.index,
    r.state,
    r.stateActions ?? null,
    r.action,
    r.reasoning ?? null,
    r.nextState,
    r.nextActions ?? null,
    r.reward,
    r.done,
    r.success,
    r.valid,
    r.realNextState ?? null,
    r.realReward ?? null,
    r.realDone ?? null,
    r.realValid ?? null,
    r.neighbourIds ?? null,
    r.model ?? null,
    r.latencyMs ?? null,
    r.promptTokens ?? null,
    r.completionTokens ?? null,
    r.raw ?? null,
    r.parseError ?? null,
    r.confidence ?? null,
    r.confidenceParts ?? null,
    r.pessimism ?? null,
    r.predictedReward ?? null,
    r.logprob ?? null,
    r.agentTokens ?? null,
    now,
  ]);
  await bulkInsert(db, "Step", COLUMNS, values);
  return ids;
}
