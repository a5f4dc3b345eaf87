"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { isActiveStatus, isResumableStatus } from "@/shared/enums";
import { useTRPC } from "@/trpc/react";

/** Cancel while queued or running; resume a failed or cancelled run from its last finished iteration. */
export function RunActions({ id, status }: { id: string; status: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.runs.list.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.runs.get.queryKey({ id }) });
  };
  const cancel = useMutation(trpc.runs.cancel.mutationOptions({ onSuccess: refresh }));
  const resume = useMutation(trpc.runs.resume.mutationOptions({ onSuccess: refresh }));
  const error = cancel.error ?? resume.error;
  return (
    <>
      {isActiveStatus(status) ? (
        <button type="button" disabled={cancel.isPending} onClick={() => cancel.mutate({ id })}>
          {cancel.isPending ? "Cancelling…" : "Cancel"}
        </button>
      ) : null}
      {isResumableStatus(status) ? (
        <button type="button" disabled={resume.isPending} onClick={() => resume.mutate({ id })}>
          Resume
        </button>
      ) : null}
      {error ? (
        <span className="hint" style={{ color: "var(--bad)" }}>
          {error.message}
        </span>
      ) : null}
    </>
  );
}
