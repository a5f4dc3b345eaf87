import type { Db } from "../db";

/** A task in a run's curriculum tree, in depth-first order: seed tasks first, their variations beneath them. */
export interface LineageNode {
  id: string;
  instruction: string;
  origin: string;
  generation: number;
  parentId: string | null;
  depth: number;
  /** Whether this run's curriculum wrote the task (ancestors from the seed set or other runs are context). */
  generatedHere: boolean;
  /** The task's mean reward variance and iterations in this run's batches; null when never in one. */
  meanVariance: number | null;
  iterations: number;
}

export interface Lineage {
  runId: string;
  generated: number;
  nodes: LineageNode[];
  truncated: boolean;
}

type TaskRow = {
  id: string;
  instruction: string;
  origin: string;
  generation: number;
  parentId: string | null;
  runId: string | null;
};

const TASK_SELECT = {
  id: true,
  instruction: true,
  origin: true,
  generation: true,
  parentId: true,
  runId: true,
} as const;

/** Ancestors deeper than this would mean a cycle in parentId, which the curriculum never writes. */
const MAX_DEPTH = 1_000;

/**
 * The run's generated tasks with every ancestor up to its seed task, as an indented tree: seed → variations →
 * variations of variations. Seed tasks that the curriculum never varied are left out.
 */
export async function runLineage(db: Db, runId: string, limit = 2_000): Promise<Lineage> {
  const generated: TaskRow[] = await db.task.findMany({
    where: { runId },
    select: TASK_SELECT,
    orderBy: [{ generation: "asc" }, { createdAt: "asc" }],
    take: limit + 1,
  });
  const truncated = generated.length > limit;
  const byId = new Map(generated.slice(0, limit).map((t) => [t.id, t]));

  let missing = parentsMissing(byId);
  for (let depth = 0; missing.length > 0 && depth < MAX_DEPTH; depth++) {
    const parents: TaskRow[] = await db.task.findMany({
      where: { id: { in: missing } },
      select: TASK_SELECT,
    });
    for (const p of parents) byId.set(p.id, p);
    if (parents.length === 0) break;
    missing = parentsMissing(byId);
  }

  const stats = await db.taskStat.groupBy({
    by: ["taskId"],
    where: { runId, taskId: { in: [...byId.keys()] } },
    _avg: { variance: true },
    _count: { _all: true },
  });
  const statOf = new Map(stats.map((s) => [s.taskId, s]));

  const children = new Map<string | null, TaskRow[]>();
  for (const t of byId.values()) {
    const parent = t.parentId !== null && byId.has(t.parentId) ? t.parentId : null;
    const list = children.get(parent) ?? [];
    list.push(t);
    children.set(parent, list);
  }
  for (const list of children.values())
    list.sort((a, b) => a.generation - b.generation || a.id.localeCompare(b.id));

  const nodes: LineageNode[] = [];
  const visit = (t: TaskRow, depth: number) => {
    const stat = statOf.get(t.id);
    nodes.push({
      id: t.id,
      instruction: t.instruction,
      origin: t.origin,
      generation: t.generation,
      parentId: t.parentId,
      depth,
      generatedHere: t.runId === runId,
      meanVariance: stat?._avg.variance ?? null,
      iterations: stat?._count._all ?? 0,
    });
    for (const child of children.get(t.id) ?? []) visit(child, depth + 1);
  };
  for (const root of children.get(null) ?? []) visit(root, 0);

  return { runId, generated: Math.min(generated.length, limit), nodes, truncated };
}

function parentsMissing(byId: Map<string, TaskRow>): string[] {
  const out = new Set<string>();
  for (const t of byId.values()) if (t.parentId !== null && !byId.has(t.parentId)) out.add(t.parentId);
  return [...out];
}
