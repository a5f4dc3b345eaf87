import fs from "node:fs/promises";
import { formatImportErrors, type ImportedTrajectory, parseImport } from "@/core/trajectories/importFormat";
import type { Db } from "../db";

export interface ImportSummary {
  file: string;
  trajectories: number;
  imported: number;
  duplicates: number;
  steps: number;
}

export class ImportRejected extends Error {
  constructor(
    readonly file: string,
    readonly errors: { line: number; message: string }[],
  ) {
    super(`${file} was rejected (${errors.length} bad line${errors.length === 1 ? "" : "s"}), nothing imported:\n${formatImportErrors(errors)}`);
  }
}

/**
 * Imports a JSONL file all or nothing: one bad line rejects the file, and everything is written in one
 * transaction, so a crash mid-import leaves nothing behind. Trajectories already imported (same content) are
 * skipped, so re-importing a file is harmless.
 */
export async function importTrajectoriesText(db: Db, text: string, name: string): Promise<ImportSummary> {
  const parsed = parseImport(text);
  if (parsed.errors.length > 0) throw new ImportRejected(name, parsed.errors);

  // Identical lines inside one file count once, too.
  const unique = new Map<string, ImportedTrajectory>();
  for (const t of parsed.trajectories) if (!unique.has(t.key)) unique.set(t.key, t);
  const existing = new Set(
    (
      await db.trajectory.findMany({ where: { importKey: { in: [...unique.keys()] } }, select: { importKey: true } })
    ).map((t) => t.importKey),
  );
  const fresh = [...unique.values()].filter((t) => !existing.has(t.key));

  let steps = 0;
  await db.$transaction(
    async (tx) => {
      for (const t of fresh) {
        const d = t.data;
        await tx.task.upsert({
          where: { id: t.taskId },
          create: { id: t.taskId, domain: d.domain, instruction: d.instruction, split: d.split, origin: "imported" },
          update: {},
        });
        const totalReward = d.steps.reduce((sum, s) => sum + s.reward, 0);
        const last = d.steps[d.steps.length - 1];
        const success = last?.success ?? (last !== undefined && last.done && last.reward >= 1);
        await tx.trajectory.create({
          data: {
            taskId: t.taskId,
            domain: d.domain,
            source: d.source,
            policy: d.policy ?? "imported",
            importKey: t.key,
            importName: name,
            totalReward,
            success,
            length: d.steps.length,
            steps: {
              create: d.steps.map((s, index) => ({
                index,
                state: s.state,
                ...(s.admissible_actions ? { stateActions: s.admissible_actions } : {}),
                action: s.action,
                reasoning: s.reasoning ?? null,
                nextState: s.next_state,
                reward: s.reward,
                done: s.done,
                success: s.success ?? (s.done && s.reward >= 1),
                valid: s.valid ?? true,
              })),
            },
          },
        });
        steps += d.steps.length;
      }
    },
    { timeout: 600_000, maxWait: 30_000 },
  );
  return {
    file: name,
    trajectories: parsed.trajectories.length,
    imported: fresh.length,
    duplicates: parsed.trajectories.length - fresh.length,
    steps,
  };
}

export async function importTrajectoriesFile(db: Db, file: string, name = file): Promise<ImportSummary> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    throw new Error(`Cannot read import file ${file}: ${(error as Error).message}`);
  }
  return importTrajectoriesText(db, text, name);
}
