"use client";

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ROLE_HINTS, ROLES, type RoleName as Role } from "@/shared/roles";
import { useTRPC } from "@/trpc/react";

/** The form that adds a person with a role and a first password; the page's status line says how it went. */
export function AddUser({
  onAdded,
  onError,
}: {
  onAdded: (email: string, role: string) => void;
  onError: (message: string) => void;
}) {
  const trpc = useTRPC();
  const [form, setForm] = useState({ email: "", name: "", password: "", role: "viewer" as Role });
  const create = useMutation(
    trpc.users.create.mutationOptions({
      onSuccess: (user) => {
        onAdded(user.email, user.role);
        setForm({ email: "", name: "", password: "", role: "viewer" });
      },
      onError: (e) => onError(e.message),
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(form);
  };
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));
  return (
    <form className="panel" aria-label="Add a person" onSubmit={submit}>
      <h2>Add a person</h2>
      <div className="filters">
        <label className="field">
          Email
          <input type="email" required value={form.email} onChange={set("email")} />
        </label>
        <label className="field">
          Name
          <input type="text" required value={form.name} onChange={set("name")} />
        </label>
        <label className="field">
          Password
          <input type="password" required minLength={8} value={form.password} onChange={set("password")} />
        </label>
        <label className="field">
          Role
          <select value={form.role} onChange={set("role")}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={create.isPending}>
          Add
        </button>
      </div>
      <p className="hint" style={{ margin: 0 }}>
        {form.role}: {ROLE_HINTS[form.role]}. Tell them their password; they sign in with their email.
      </p>
    </form>
  );
}
