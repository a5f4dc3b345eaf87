"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/trpc/react";

/** The one line the Users page shows after an action: each new result replaces the last, error or not. */
export type UsersStatus = { kind: "error" | "notice"; text: string } | null;

/**
 * The Users page's changes to people, sharing one status line (so an error goes away once something later
 * succeeds) and refreshing the list and the audit log after each.
 */
export function useUserActions() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<UsersStatus>(null);
  const done = (text: string) => {
    setStatus({ kind: "notice", text });
    void queryClient.invalidateQueries({ queryKey: trpc.users.list.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.users.auditLog.queryKey() });
  };
  const failed = (e: { message: string }) => setStatus({ kind: "error", text: e.message });
  const setRole = useMutation(
    trpc.users.setRole.mutationOptions({
      onSuccess: (u) => done(`${u.email} is now ${u.role}.`),
      onError: failed,
    }),
  );
  const setPassword = useMutation(
    trpc.users.setPassword.mutationOptions({
      onSuccess: () => done("Password changed; that person was signed out everywhere."),
      onError: failed,
    }),
  );
  const deactivate = useMutation(
    trpc.users.deactivate.mutationOptions({
      onSuccess: (u) =>
        done(`${u.email} is deactivated: signed out everywhere, and their tokens no longer work.`),
      onError: failed,
    }),
  );
  const reactivate = useMutation(
    trpc.users.reactivate.mutationOptions({
      onSuccess: (u) => done(`${u.email} can sign in again.`),
      onError: failed,
    }),
  );
  return {
    status,
    /** For the add form, which reports through the same line. */
    report: (next: UsersStatus) => setStatus(next),
    added: (email: string, role: string) => done(`Added ${email} as ${role}.`),
    setRole,
    setPassword,
    deactivate,
    reactivate,
  };
}
