import fs from "node:fs/promises";
import {
  type ConvertOptions,
  DEFAULT_IMPORT_FORMAT,
  type ImportFormat,
  parseImportAs,
} from "@/core/trajectories/formats";
import { type ImportedTrajectory, rejectionMessage } from "@/core/trajectories/importFormat";
import { cleanName } from "@/shared/names";
import type { Db } from "../db";
import type { Fence } from "../queue/fence";
import { insertSteps, type StepRow } from "./insertSteps";
import { importedTrajectoryId, offlineStepId } from "./offlineIds";

export interface ImportSummary {
  file: string;
  /** The format the file was read as (README "Importing trajectories"). */
  format: string;
  trajectories: number;
  imported: number;
  duplicates: number;
  steps: number;
  /** The domains the file's trajectories belong to (the import's trust figures are measured per domain). */
  domains: string[];
}

/** Which format the file is in (default: the project's JSONL), and what a converter is told. */
export interface ImportOptions extends ConvertOptions {
  format?: ImportFormat;
}

export class ImportRejected extends Error {
  constructor(
    readonly file: string,
    readonly errors: { line: number; message: string }[],
  ) {
    super(rejectionMessage(file, errors));
  }
}

/**
 * Imports a file (the project's JSONL, or a format converted to it) all or nothing: one bad line rejects the file, and everything is written in one
 * transaction, so a crash mid-import leaves nothing behind. Trajectories already imported (same content) are
 * skipped, so re-importing a file is harmless.
 */
export async function importTrajectoriesText(
  db: Db,
  text: string,
  name: string,
  /** The import job's fencing check, first in the transaction: a worker that lost the job writes nothing. */
  fence?: Fence,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const { format = DEFAULT_IMPORT_FORMAT, ...convert } = options;
  const parsed = parseImportAs(text, format, convert);
  if (parsed.errors.length > 0) throw new ImportRejected(name, parsed.errors);

  // Identical lines inside one file count once, too.
  const unique = new Map<string, ImportedTrajectory>();
  for (const t of parsed.trajectories) if (!unique.has(t.key)) unique.set(t.key, t);
  const existing = new Set(
    (
      await db.trajectory.findMany({
        where: { importKey: { in: [...unique.keys()] } },
        select: { importKey: true },
      })
    ).map((t) => t.importKey),
  );
  const fresh = [...unique.values()].filter((t) => !existing.has(t.key));

  const tasks = new Map(fresh.map((t) => [t.taskId, t.data]));
  const knownTasks = new Set(
    (await db.task.findMany({ where: { id: { in: [...tasks.keys()] } }, select: { id: true } })).map(
      (t) => t.id,
    ),
  );
  // Ids from content, like the import keys: the same file imported into two databases gives the same rows.
  const ids = fresh.map((t) => importedTrajectoryId(t.key));
  const steps: StepRow[] = fresh.flatMap((t, i) =>
    t.data.steps.map((s, index, all) => ({
      id: offlineStepId(ids[i] as string, index),
      trajectoryId: ids[i] as string,
      index,
      state: s.state,
      stateActions: s.admissible_actions ?? null,
      // A log's next state is the state of its next step: it lists the same admissible actions (the experience
      // model grounds the next state's actions in them).
      nextActions:
        all[index + 1]?.state === s.next_state ? (all[index + 1]?.admissible_actions ?? null) : null,
      action: s.action,
      reasoning: s.reasoning ?? null,
      nextState: s.next_state,
      reward: s.reward,
      done: s.done,
      success: s.success ?? (s.done && s.reward >= 1),
      valid: s.valid ?? true,
    })),
  );
  await db.$transaction(
    async (tx) => {
      await fence?.(tx);
      await tx.task.createMany({
        data: [...tasks.entries()]
          .filter(([id]) => !knownTasks.has(id))
          .map(([id, d]) => ({
            id,
            domain: d.domain,
            instruction: d.instruction,
            split: d.split,
            origin: "imported",
          })),
      });
      await tx.trajectory.createMany({
        data: fresh.map((t, i) => {
          const d = t.data;
          const last = d.steps[d.steps.length - 1];
          return {
            id: ids[i] as string,
            taskId: t.taskId,
            domain: d.domain,
            source: d.source,
            policy: d.policy ?? "imported",
            importKey: t.key,
            // Cleaned as the web's upload cleans it, whichever way the name came (the CLI passes a path).
            importName: cleanName(name),
            totalReward: d.steps.reduce((sum, s) => sum + s.reward, 0),
            success: last?.success ?? (last?.done === true && last.reward >= 1),
            length: d.steps.length,
          };
        }),
      });
      await insertSteps(tx, steps);
    },
    { timeout: 600_000, maxWait: 30_000 },
  );
  return {
    file: name,
    format: parsed.format,
    trajectories: parsed.trajectories.length,
    imported: fresh.length,
    duplicates: parsed.trajectories.length - fresh.length,
    steps: steps.length,
    domains: [...new Set(parsed.trajectories.map((t) => t.data.domain))].sort(),
  };
}

export async function importTrajectoriesFile(
  db: Db,
  file: string,
  name = file,
  fence?: Fence,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    throw new Error(`Cannot read import file ${file}: ${(error as Error).message}`);
  }
  return importTrajectoriesText(db, text, name, fence, options);
}
