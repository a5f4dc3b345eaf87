"use client";

import { useSearchParams } from "next/navigation";
import { type FormEvent, useState } from "react";
import { authClient } from "../lib/authClient";
import { localPath } from "../lib/localPath";

/** Email and password, plus the organisation's OIDC provider when one is configured. */
export function SignInForm({ oidcName }: { oidcName: string | null }) {
  const params = useSearchParams();
  const next = localPath(params.get("next"));
  const providerError = params.get("error");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(
    providerError ? `Signing in with ${oidcName ?? "the provider"} failed (${providerError})` : null,
  );
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    const { error: refused } = await authClient.signIn.email({ email: email.trim(), password });
    setPending(false);
    if (refused) return setError(refused.message ?? "Signing in failed");
    // A full load: everything cached while signed out (who am I, refusals) belongs to nobody.
    window.location.assign(next);
  };

  const sso = async () => {
    // A refusal at the provider comes back here with ?error=… rather than to Better Auth's own error page.
    const { error: refused } = await authClient.signIn.social({
      provider: "oidc",
      callbackURL: next,
      errorCallbackURL: "/sign-in",
    });
    if (refused) setError(refused.message ?? `Signing in with ${oidcName} failed`);
  };

  return (
    <form className="panel signin" onSubmit={submit} aria-label="Sign in">
      <h1>Sign in to DreamGym</h1>
      <label className="field">
        Email
        <input
          type="email"
          name="email"
          autoComplete="username"
          required
          // biome-ignore lint/a11y/noAutofocus: signing in is the one thing to do on this page
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </label>
      <label className="field">
        Password
        <input
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      {error ? (
        <div className="error" role="alert">
          {error}
        </div>
      ) : null}
      <button type="submit" className="primary" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
      {oidcName ? (
        <button type="button" onClick={sso}>
          Sign in with {oidcName}
        </button>
      ) : null}
      <p className="hint">
        An admin adds people on the Users page. A fresh start prints the first admin's password once.
      </p>
    </form>
  );
}
