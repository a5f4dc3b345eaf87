import type { Command } from "commander";
import { deleteImport, listImports, previewImportDeletion } from "@/server/retention/deleteImport";
import { deleteRun, previewRunDeletion } from "@/server/retention/deleteRun";
import type { LanceRemoval } from "@/server/retention/lanceRows";
import { sharedLanceRows } from "@/server/retention/lanceRows";
import { cleanName } from "@/shared/names";
import { database, printJson } from "../args";

interface Preview {
  refusal: string | null;
}

/**
 * Without --yes a deletion only says what it would remove (as JSON on stdout) and exits non-zero, so that a
 * mistyped id in a script deletes nothing; a refusal (a run still running) exits non-zero either way.
 */
function refuseUnlessConfirmed(preview: Preview, what: string, yes: boolean | undefined): void {
  const { refusal, ...contents } = preview;
  if (refusal) throw new Error(refusal);
  if (yes) return;
  printJson({ deleted: false, wouldDelete: contents });
  throw new Error(`nothing deleted: pass --yes to delete ${what}`);
}

/** The rows LanceDB kept are not an error (the database part is done), but the operator must hear of them. */
function warnAboutRows(result: LanceRemoval): void {
  if (result.lanceError) process.stderr.write(`warning: ${result.lanceError}\n`);
}

export function registerRetentionCommands(program: Command) {
  program
    .command("imports")
    .description("list imports: name, trajectories, steps, domains, when first and last imported")
    .action(async () => printJson(await listImports(await database())));

  program
    .command("delete-run")
    .description(
      "delete a run with its trajectories, steps, annotations, metrics, task statistics, checkpoints, generated " +
        "tasks, train jobs and replay-buffer rows (a queued or running run must be cancelled first)",
    )
    .argument("<runId>", "the run's id")
    .option("--yes", "really delete (without it, print what would be deleted and exit 1)")
    .action(async (runId: string, options: { yes?: boolean }) => {
      const db = await database();
      const preview = await previewRunDeletion(db, runId);
      refuseUnlessConfirmed(preview, `run "${preview.name}" (${runId})`, options.yes);
      const result = await deleteRun(db, runId, sharedLanceRows(db));
      warnAboutRows(result);
      printJson({ deleted: true, ...result });
    });

  program
    .command("delete-import")
    .description(
      "delete the trajectories imported under a name with their steps, annotations, the imported tasks nothing " +
        "else uses, and their replay-buffer rows",
    )
    .argument("<name>", "the import's name, as `imports` lists it")
    .option("--yes", "really delete (without it, print what would be deleted and exit 1)")
    .action(async (raw: string, options: { yes?: boolean }) => {
      // Stored import names lose their control characters (shared/names.ts): the name given is read the same way.
      const name = cleanName(raw);
      const db = await database();
      refuseUnlessConfirmed(await previewImportDeletion(db, name), `import ${name}`, options.yes);
      const result = await deleteImport(db, name, sharedLanceRows(db));
      warnAboutRows(result);
      printJson({ deleted: true, ...result });
    });
}
