import type { Db } from "../db";
import type { LanceReplayBuffer } from "../replay/lanceReplayBuffer";
import { withReplayBuffer } from "../replay/sharedReplayBuffer";

/** What a deletion needs of the replay buffer: which of its steps have rows, and removing them. */
export type LanceRows = Pick<LanceReplayBuffer, "existingIds" | "deleteIds">;

export interface LanceRemoval {
  /** Rows of the deleted steps removed from LanceDB (steps never indexed had none). */
  lanceRowsRemoved: number;
  /** Why the rows could not be removed, when they could not: the database part stands, reconcile removes them. */
  lanceError: string | null;
}

/** The process's shared replay buffer (config().lancedbDir), opened only if a deletion gets this far. */
export function sharedLanceRows(db: Db): LanceRows {
  return {
    existingIds: (ids) => withReplayBuffer(db, (store) => store.existingIds(ids)),
    deleteIds: (ids) => withReplayBuffer(db, (store) => store.deleteIds(ids)),
  };
}

/**
 * Removes the rows of steps that Prisma has already deleted. Runs after the commit, never before: a crash or an
 * error here leaves rows without a step, which `reconcile` removes, whereas the other order could leave steps
 * that Prisma still has (and marks indexed) without their row. So a failure is reported with what to run, not
 * thrown: the deletion itself has happened.
 */
export async function removeLanceRows(lance: LanceRows, stepIds: string[]): Promise<LanceRemoval> {
  if (stepIds.length === 0) return { lanceRowsRemoved: 0, lanceError: null };
  try {
    const present = [...(await lance.existingIds(stepIds))];
    await lance.deleteIds(present);
    return { lanceRowsRemoved: present.length, lanceError: null };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      lanceRowsRemoved: 0,
      lanceError: `the replay buffer's rows were not removed (${why}); run \`npm run cli -- reconcile\``,
    };
  }
}
