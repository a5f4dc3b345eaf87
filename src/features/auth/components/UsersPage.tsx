"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmDialog } from "@/features/shared/components/ConfirmDialog";
import type { RoleName as Role } from "@/shared/roles";
import { useTRPC } from "@/trpc/react";
import { useUserActions } from "../lib/useUserActions";
import { AddUser } from "./AddUser";
import { AdminLog } from "./AdminLog";
import { type User, UserRow } from "./UserRow";

type Pending = { kind: "role"; user: User; role: Role } | { kind: "deactivate"; user: User } | null;

/**
 * The people who may sign in, their roles, and the way to add someone, change a role (after a confirmation),
 * reset a password, deactivate or reactivate; below, the audit log of admin actions (for a role that may manage
 * people: the page wraps it in Allowed).
 */
export function UsersPage() {
  const trpc = useTRPC();
  const users = useQuery(trpc.users.list.queryOptions());
  const actions = useUserActions();
  const [pending, setPending] = useState<Pending>(null);
  const confirm = () => {
    if (!pending) return;
    if (pending.kind === "role") actions.setRole.mutate({ id: pending.user.id, role: pending.role });
    else actions.deactivate.mutate({ id: pending.user.id });
    setPending(null);
  };
  return (
    <div style={{ display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 14 }}>
      <AddUser onAdded={actions.added} onError={(text) => actions.report({ kind: "error", text })} />
      {actions.status?.kind === "error" ? (
        <div className="error" role="alert">
          {actions.status.text}
        </div>
      ) : null}
      {actions.status?.kind === "notice" ? <div role="status">{actions.status.text}</div> : null}
      <div className="scroll-x">
        <table className="grid" aria-label="People">
          <thead>
            <tr>
              <th>Name</th>
              <th>Email</th>
              <th>Role</th>
              <th>Status</th>
              <th>Added</th>
              <th>Access</th>
            </tr>
          </thead>
          <tbody>
            {(users.data ?? []).map((u) => (
              <UserRow
                key={u.id}
                user={u}
                onRole={(role) => setPending({ kind: "role", user: u, role })}
                onPassword={(password) => actions.setPassword.mutate({ id: u.id, password })}
                onDeactivate={() => setPending({ kind: "deactivate", user: u })}
                onReactivate={() => actions.reactivate.mutate({ id: u.id })}
              />
            ))}
          </tbody>
        </table>
      </div>
      {pending ? (
        <ConfirmDialog
          title={pending.kind === "role" ? "Change this role?" : "Deactivate this person?"}
          confirmLabel={pending.kind === "role" ? `Make ${pending.role}` : "Deactivate"}
          busyLabel="Saving…"
          busy={false}
          onCancel={() => setPending(null)}
          onConfirm={confirm}
        >
          {pending.kind === "role" ? (
            <p>
              {pending.user.email} goes from {pending.user.role} to {pending.role}, from their next request
              on.
            </p>
          ) : (
            <p>
              {pending.user.email} is signed out everywhere now, their bearer tokens stop working, and they
              cannot sign in until an admin reactivates them. Their reviews, flags and runs stay.
            </p>
          )}
        </ConfirmDialog>
      ) : null}
      <AdminLog />
    </div>
  );
}
