"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { REMOTE_PROTOCOL_LABELS, REMOTE_PROTOCOLS, type RemoteProtocol } from "@/core/envs/remote/spec";
import { useTRPC } from "@/trpc/react";
import styles from "../domains.module.css";
import { emptyForm, type RegistrationForm, toRegistration } from "../lib/registration";
import type { Registered } from "../types";
import { AdvancedFields } from "./AdvancedFields";
import { HealthResult } from "./HealthResult";
import { TextField } from "./TextField";

/**
 * Registers a real environment that runs outside the app: the server checks it answers and resets train task 0
 * before keeping it, so the form shows either that sample or the sentence saying why it was refused.
 */
export function RegisterForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<RegistrationForm>(emptyForm);
  // Kept apart from the mutation's own state, so that a refusal stays until the next registration succeeds.
  const [error, setError] = useState<string | null>(null);
  const [registered, setRegistered] = useState<Registered | null>(null);
  const register = useMutation(
    trpc.domains.register.mutationOptions({
      onSuccess: (data) => {
        setError(null);
        setRegistered(data);
        setForm({ ...emptyForm(), protocol: form.protocol });
        void queryClient.invalidateQueries({ queryKey: trpc.domains.list.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.domains.remote.queryKey() });
      },
      onError: (e) => {
        setRegistered(null);
        setError(e.message);
      },
    }),
  );
  const change = (key: keyof RegistrationForm, value: string) => setForm((f) => ({ ...f, [key]: value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    register.mutate(toRegistration(form));
  };

  return (
    <section className="panel" aria-labelledby="register-heading">
      <form className={styles.form} onSubmit={submit} noValidate aria-labelledby="register-heading">
        <h2 id="register-heading">Register a remote environment</h2>
        <p className="hint" style={{ margin: 0 }}>
          An OpenEnv or AgentGym server running elsewhere becomes a real domain: runs train and are evaluated
          in it. It is checked (health, then a reset of train task 0) before it is kept.
        </p>
        <TextField
          label="Name"
          value={form.name}
          onChange={(v) => change("name", v)}
          required
          placeholder="helpdesk"
          hint="lowercase letters, digits, - and _"
        />
        <TextField
          label="URL"
          inputMode="url"
          value={form.url}
          onChange={(v) => change("url", v)}
          required
          placeholder="http://127.0.0.1:36001"
        />
        <label className="field">
          Protocol
          <select
            value={form.protocol}
            onChange={(e) => change("protocol", e.target.value as RemoteProtocol)}
          >
            {REMOTE_PROTOCOLS.map((p) => (
              <option key={p} value={p}>
                {REMOTE_PROTOCOL_LABELS[p]}
              </option>
            ))}
          </select>
        </label>
        <TextField
          label="Token (optional)"
          type="password"
          autoComplete="new-password"
          value={form.token}
          onChange={(v) => change("token", v)}
          hint="sent as a bearer token; stored, never shown again"
        />
        <AdvancedFields form={form} onChange={change} />
        <div className={styles.actions}>
          <button type="submit" className="primary" disabled={register.isPending}>
            {register.isPending ? "Checking the environment…" : "Register"}
          </button>
        </div>
        {error ? (
          <div className={`error ${styles.error}`} role="alert" data-testid="register-error">
            {error}
          </div>
        ) : null}
        {registered ? <HealthResult registered={registered} /> : null}
      </form>
    </section>
  );
}
