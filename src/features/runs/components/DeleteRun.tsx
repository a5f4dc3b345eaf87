"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmDialog } from "@/features/shared/components/ConfirmDialog";
import { countOf, listOf } from "@/features/shared/lib/countOf";
import { useTRPC } from "@/trpc/react";

/**
 * "Delete run", asked once more in a dialog that counts what goes (from the server, when it opens), then back to
 * the runs list. Only for a run that is not queued or running: the server refuses those ("cancel it first").
 */
export function DeleteRun({ id }: { id: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Delete run
      </button>
      {open ? <DeleteRunDialog id={id} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function DeleteRunDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  // Counted afresh at every opening: the run may have changed since the page loaded.
  const preview = useQuery({ ...trpc.runs.deletePreview.queryOptions({ id }), staleTime: 0, gcTime: 0 });
  const remove = useMutation(
    trpc.runs.delete.mutationOptions({
      onSuccess: () => {
        router.push("/runs");
        void queryClient.invalidateQueries({ queryKey: trpc.runs.list.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.trajectories.runOptions.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.buffer.stats.queryKey() });
      },
    }),
  );
  const p = preview.data;
  return (
    <ConfirmDialog
      title="Delete run?"
      confirmLabel="Delete"
      busyLabel="Deleting…"
      busy={remove.isPending || remove.isSuccess}
      confirmDisabled={!p || p.refusal !== null}
      error={p?.refusal ?? remove.error?.message ?? preview.error?.message ?? null}
      onCancel={onClose}
      onConfirm={() => remove.mutate({ id })}
    >
      {p ? (
        <>
          <p data-testid="delete-summary">
            Delete run <strong>{p.name}</strong>: {countOf(p.trajectories, "trajectory", "trajectories")},{" "}
            {countOf(p.steps, "step")}, {countOf(p.metrics, "metric")}. This cannot be undone.
          </p>
          <p className="hint">
            With it go{" "}
            {listOf([
              countOf(p.annotations, "annotation"),
              countOf(p.taskStats, "task statistic"),
              countOf(p.checkpoints, "checkpoint"),
              countOf(p.generatedTasks, "generated task"),
              countOf(p.jobs, "train job"),
            ])}
            , and its steps' rows in the replay buffer.
            {p.sharedTasks > 0
              ? ` ${countOf(p.sharedTasks, "generated task")} that other runs also use stay, with them.`
              : ""}
          </p>
        </>
      ) : (
        <p className="hint">Counting what belongs to the run…</p>
      )}
    </ConfirmDialog>
  );
}
