import {
  Table as ArrowTable,
  Bool,
  Field,
  FixedSizeList,
  Float32,
  Float64,
  Int32,
  makeData,
  makeVector,
  RecordBatch,
  Schema,
  Struct,
  Utf8,
  vectorFromArray,
} from "apache-arrow";
import { z } from "zod";
import type { EmbedderIdentity } from "@/core/replay/embedder";
import type { Transition } from "@/core/types";
import { TrajectorySource } from "@/shared/enums";

/** The LanceDB table of the replay buffer: one row per Prisma Step, keyed by the Step's id. */
export const TRANSITIONS_TABLE = "transitions";
/** Schema metadata key: which embedder wrote the vectors, so that a different one is refused (see openReplayBuffer.ts). */
export const EMBEDDER_METADATA_KEY = "dreamgym.embedder";

/** A transition with the context that a row keeps for filters and for the UI's links. */
export interface StoredTransition extends Transition {
  /** The Step's trajectory; "" for transitions added through ReplayBuffer.add without one. */
  trajectoryId: string;
  runId: string | null;
  iteration: number | null;
}

export type StoredDemonstration = StoredTransition & { score: number };

type ScalarType = Utf8 | Int32 | Float64 | Bool;
interface Column {
  name: string;
  type: () => ScalarType;
  nullable: boolean;
  value: (row: StoredTransition, text: string) => string | number | boolean | null;
}

function actionsJson(actions: string[] | undefined): string | null {
  return actions ? JSON.stringify(actions) : null;
}

/** Every column but the vector, in table order: the schema and the Arrow conversion both come from this list. */
/** The columns beside the vector, in order (ARCHITECTURE.md lists them; tests/architectureClaims.test.ts checks). */
export const LANCE_COLUMNS: Column[] = [
  { name: "id", type: () => new Utf8(), nullable: false, value: (r) => r.id },
  { name: "trajectoryId", type: () => new Utf8(), nullable: false, value: (r) => r.trajectoryId },
  { name: "domain", type: () => new Utf8(), nullable: false, value: (r) => r.domain },
  { name: "source", type: () => new Utf8(), nullable: false, value: (r) => r.source },
  { name: "taskId", type: () => new Utf8(), nullable: true, value: (r) => r.taskId ?? null },
  { name: "runId", type: () => new Utf8(), nullable: true, value: (r) => r.runId },
  { name: "iteration", type: () => new Int32(), nullable: true, value: (r) => r.iteration },
  { name: "reward", type: () => new Float64(), nullable: false, value: (r) => r.reward },
  { name: "done", type: () => new Bool(), nullable: false, value: (r) => r.done },
  { name: "valid", type: () => new Bool(), nullable: false, value: (r) => r.valid },
  { name: "success", type: () => new Bool(), nullable: false, value: (r) => r.success },
  { name: "instruction", type: () => new Utf8(), nullable: false, value: (r) => r.instruction },
  { name: "state", type: () => new Utf8(), nullable: false, value: (r) => r.state.text },
  // JSON arrays, when the domain lists admissible actions.
  {
    name: "stateActions",
    type: () => new Utf8(),
    nullable: true,
    value: (r) => actionsJson(r.state.actions),
  },
  { name: "action", type: () => new Utf8(), nullable: false, value: (r) => r.action },
  { name: "nextState", type: () => new Utf8(), nullable: false, value: (r) => r.next.text },
  { name: "nextActions", type: () => new Utf8(), nullable: true, value: (r) => actionsJson(r.next.actions) },
  { name: "text", type: () => new Utf8(), nullable: false, value: (_, text) => text },
];

function vectorType(dimension: number) {
  return new FixedSizeList(dimension, new Field("item", new Float32(), true));
}

export function transitionsSchema(embedder: EmbedderIdentity): Schema {
  return new Schema(
    [
      ...LANCE_COLUMNS.map((c) => new Field(c.name, c.type(), c.nullable)),
      new Field("vector", vectorType(embedder.dimension), false),
    ],
    new Map([[EMBEDDER_METADATA_KEY, JSON.stringify({ id: embedder.id, dimension: embedder.dimension })]]),
  );
}

/**
 * Column by column into Arrow, with the vectors as one contiguous Float32Array: several times faster than
 * LanceDB's conversion of plain objects, which matters at a million rows.
 */
export function toArrow(
  schema: Schema,
  rows: StoredTransition[],
  texts: string[],
  vectors: Float32Array[],
  dimension: number,
): ArrowTable {
  const n = rows.length;
  const flat = new Float32Array(n * dimension);
  vectors.forEach((v, i) => {
    if (v.length !== dimension) {
      throw new Error(`the vector of ${rows[i]?.id} has ${v.length} dimensions; the table has ${dimension}`);
    }
    flat.set(v, i * dimension);
  });
  const scalars = LANCE_COLUMNS.map(
    (c) =>
      vectorFromArray(
        rows.map((r, i) => c.value(r, texts[i]!)),
        c.type(),
      ).data[0]!,
  );
  const child = makeData({ type: new Float32(), length: n * dimension, data: flat });
  const vectorColumn = makeVector(makeData({ type: vectorType(dimension), length: n, nullCount: 0, child }));
  const children = [...scalars, vectorColumn.data[0]!];
  const batch = new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: n, children }));
  return new ArrowTable(schema, batch);
}

/** The columns a search returns (the vector and the embedded text stay in the table). */
export const RESULT_COLUMNS = [
  "id",
  "trajectoryId",
  "domain",
  "source",
  "taskId",
  "runId",
  "iteration",
  "reward",
  "done",
  "valid",
  "success",
  "instruction",
  "state",
  "stateActions",
  "action",
  "nextState",
  "nextActions",
];

const Actions = z
  .string()
  .nullable()
  .transform((s, ctx) => {
    if (s === null) return undefined;
    const parsed = z.array(z.string()).safeParse(JSON.parse(s));
    if (!parsed.success) {
      ctx.addIssue({ code: "custom", message: "actions column is not a JSON array of strings" });
      return z.NEVER;
    }
    return parsed.data;
  });

/** A row as LanceDB hands it back: parsed, because the folder may have been written by another version. */
const ResultRow = z.object({
  id: z.string(),
  trajectoryId: z.string(),
  domain: z.string(),
  source: TrajectorySource,
  taskId: z.string().nullable(),
  runId: z.string().nullable(),
  iteration: z.number().int().nullable(),
  reward: z.number(),
  done: z.boolean(),
  valid: z.boolean(),
  success: z.boolean(),
  instruction: z.string(),
  state: z.string(),
  stateActions: Actions,
  action: z.string(),
  nextState: z.string(),
  nextActions: Actions,
  _distance: z.number().optional(),
});

export function fromRow(row: unknown): StoredDemonstration {
  const parsed = ResultRow.safeParse(row);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`replay buffer row is malformed (${problems}); run \`npm run cli -- reindex\``);
  }
  const r = parsed.data;
  return {
    id: r.id,
    trajectoryId: r.trajectoryId,
    domain: r.domain,
    source: r.source,
    ...(r.taskId !== null ? { taskId: r.taskId } : {}),
    runId: r.runId,
    iteration: r.iteration,
    instruction: r.instruction,
    state: { text: r.state, ...(r.stateActions ? { actions: r.stateActions } : {}) },
    action: r.action,
    next: { text: r.nextState, ...(r.nextActions ? { actions: r.nextActions } : {}) },
    reward: r.reward,
    done: r.done,
    valid: r.valid,
    success: r.success,
    // Cosine distance is 1 − cosine similarity.
    score: r._distance === undefined ? 0 : 1 - r._distance,
  };
}
