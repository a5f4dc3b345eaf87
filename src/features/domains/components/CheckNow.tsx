"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";
import styles from "../domains.module.css";
import type { Health } from "../types";

/** Asks the environment again now; the answer replaces the last health shown. */
export function CheckNow({ name, onChecked }: { name: string; onChecked: (health: Health) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const check = useMutation(
    trpc.domains.check.mutationOptions({
      onSuccess: ({ ok, message }) => {
        onChecked({ ok, message, at: new Date() });
        void queryClient.invalidateQueries({ queryKey: trpc.domains.remote.queryKey() });
      },
    }),
  );
  return (
    <>
      <button type="button" disabled={check.isPending} onClick={() => check.mutate({ name })}>
        {check.isPending ? "Checking…" : "Check now"}
      </button>
      {check.error ? (
        <div className={`error ${styles.error}`} role="alert">
          {check.error.message}
        </div>
      ) : null}
    </>
  );
}
