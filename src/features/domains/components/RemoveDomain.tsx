"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmDialog } from "@/features/shared/components/ConfirmDialog";
import { useTRPC } from "@/trpc/react";
import type { RemoteDomain } from "../types";

/** "Remove", asked once more by name; the server refuses while a queued or running run uses the domain. */
export function RemoveDomain({ remote }: { remote: RemoteDomain }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Remove
      </button>
      {open ? <RemoveDialog remote={remote} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function RemoveDialog({ remote, onClose }: { remote: RemoteDomain; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.domains.remove.mutationOptions({
      onSuccess: () => {
        onClose();
        void queryClient.invalidateQueries({ queryKey: trpc.domains.list.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.domains.remote.queryKey() });
      },
    }),
  );
  return (
    <ConfirmDialog
      title={`Remove remote domain ${remote.name}?`}
      confirmLabel={`Remove ${remote.name}`}
      busyLabel="Removing…"
      busy={remove.isPending}
      error={remove.error?.message ?? null}
      onCancel={onClose}
      onConfirm={() => remove.mutate({ name: remote.name })}
    >
      <p>
        <strong>{remote.name}</strong> ({remote.url}) will no longer be a domain: no run can be launched on it
        until it is registered again.
      </p>
      <p className="hint">
        Its tasks, and the runs and trajectories recorded in it, stay. A run queued or running on it refuses
        the removal.
      </p>
    </ConfirmDialog>
  );
}
