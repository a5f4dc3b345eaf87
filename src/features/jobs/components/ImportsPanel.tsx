"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Allowed } from "@/features/auth/components/Allowed";
import { ConfirmDialog } from "@/features/shared/components/ConfirmDialog";
import { countOf, listOf } from "@/features/shared/lib/countOf";
import { useTRPC } from "@/trpc/react";

/** Every imported file with what it brought, and a way to take it all out again. */
export function ImportsPanel() {
  const trpc = useTRPC();
  // An import queued on this page lands a few seconds later: keep the list current while the page is open.
  const imports = useQuery({ ...trpc.trajectories.imports.queryOptions(), refetchInterval: 3_000 });
  const [deleting, setDeleting] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <section className="panel" aria-label="Imports">
      <h2>Imports</h2>
      {imports.error ? <div className="error">{imports.error.message}</div> : null}
      {notice ? (
        <p className="hint" data-testid="imports-notice">
          {notice}
        </p>
      ) : null}
      {imports.data && imports.data.length === 0 ? <p className="hint">Nothing imported yet.</p> : null}
      {imports.data && imports.data.length > 0 ? (
        <table className="grid" aria-label="Imported files">
          <thead>
            <tr>
              <th>Name</th>
              <th>Domains</th>
              <th>Trajectories</th>
              <th>Steps</th>
              <th>First imported</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {imports.data.map((i) => (
              <tr key={i.name} data-testid="import-row">
                <td className="mono">{i.name}</td>
                <td>{i.domains.join(", ")}</td>
                <td>{i.trajectories.toLocaleString("en-US")}</td>
                <td>{i.steps.toLocaleString("en-US")}</td>
                <td className="hint">{i.firstImportedAt.toLocaleString()}</td>
                <td>
                  <Allowed permission="data:delete">
                    <button
                      type="button"
                      aria-label={`Delete import ${i.name}`}
                      onClick={() => setDeleting(i.name)}
                    >
                      Delete
                    </button>
                  </Allowed>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {deleting !== null ? (
        <DeleteImportDialog
          name={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={(text) => {
            setDeleting(null);
            setNotice(text);
          }}
        />
      ) : null}
    </section>
  );
}

function DeleteImportDialog({
  name,
  onClose,
  onDeleted,
}: {
  name: string;
  onClose: () => void;
  onDeleted: (notice: string) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const preview = useQuery({
    ...trpc.trajectories.importDeletePreview.queryOptions({ name }),
    staleTime: 0,
    gcTime: 0,
  });
  const remove = useMutation(
    trpc.trajectories.deleteImport.mutationOptions({
      onSuccess: (r) => {
        onDeleted(
          `Deleted import ${r.name}: ${countOf(r.trajectories, "trajectory", "trajectories")}, ${countOf(r.steps, "step")}.` +
            (r.lanceError ? ` ${r.lanceError}` : ""),
        );
        for (const key of [
          trpc.trajectories.imports.queryKey(),
          trpc.trajectories.facets.queryKey(),
          trpc.buffer.stats.queryKey(),
        ])
          void queryClient.invalidateQueries({ queryKey: key });
      },
    }),
  );
  const p = preview.data;
  return (
    <ConfirmDialog
      title="Delete import?"
      confirmLabel="Delete"
      busyLabel="Deleting…"
      busy={remove.isPending}
      confirmDisabled={!p || p.refusal !== null}
      error={p?.refusal ?? remove.error?.message ?? preview.error?.message ?? null}
      onCancel={onClose}
      onConfirm={() => remove.mutate({ name })}
    >
      {p ? (
        <>
          <p data-testid="delete-summary">
            Delete import <strong>{p.name}</strong>: {countOf(p.trajectories, "trajectory", "trajectories")},{" "}
            {countOf(p.steps, "step")}, {countOf(p.annotations, "annotation")}. This cannot be undone.
          </p>
          <p className="hint">
            With it go {listOf([countOf(p.tasks, "imported task"), "the steps' rows in the replay buffer"])}.
            Tasks that other trajectories use stay.
          </p>
        </>
      ) : (
        <p className="hint">Counting what the import brought…</p>
      )}
    </ConfirmDialog>
  );
}
