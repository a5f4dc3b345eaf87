"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ROLES, type RoleName as Role } from "@/shared/roles";
import { useTRPC } from "@/trpc/react";
import { AddUser } from "./AddUser";

/**
 * The people who may sign in, their roles, and the way to add someone, change a role or reset a password (for a
 * role that may manage people: the page wraps it in Allowed).
 */
export function UsersPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const users = useQuery(trpc.users.list.queryOptions());
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.users.list.queryKey() });
  const setRole = useMutation(
    trpc.users.setRole.mutationOptions({
      onSuccess: (u) => {
        setError(null);
        setNotice(`${u.email} is now ${u.role}.`);
        refresh();
      },
      onError: (e) => setError(e.message),
    }),
  );
  const setPassword = useMutation(
    trpc.users.setPassword.mutationOptions({
      onSuccess: () => {
        setError(null);
        setNotice("Password changed; that person was signed out everywhere.");
      },
      onError: (e) => setError(e.message),
    }),
  );
  return (
    <div style={{ display: "grid", gap: 14 }}>
      <AddUser />
      {error ? (
        <div className="error" role="alert">
          {error}
        </div>
      ) : null}
      {notice ? <div role="status">{notice}</div> : null}
      <table className="grid" aria-label="People">
        <thead>
          <tr>
            <th>Name</th>
            <th>Email</th>
            <th>Role</th>
            <th>Added</th>
            <th>Password</th>
          </tr>
        </thead>
        <tbody>
          {(users.data ?? []).map((u) => (
            <tr key={u.id} data-testid="user-row">
              <td>{u.name}</td>
              <td className="mono">{u.email}</td>
              <td>
                <select
                  aria-label={`Role of ${u.email}`}
                  value={u.role}
                  onChange={(e) => setRole.mutate({ id: u.id, role: e.target.value as Role })}
                >
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              </td>
              <td className="hint">{u.createdAt.toLocaleString()}</td>
              <td>
                <button
                  type="button"
                  onClick={() => {
                    const password = window.prompt(`New password for ${u.email} (at least 8 characters)`);
                    if (password) setPassword.mutate({ id: u.id, password });
                  }}
                >
                  Set password
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
