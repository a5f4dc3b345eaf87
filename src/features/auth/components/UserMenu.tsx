"use client";

import { useQueryClient } from "@tanstack/react-query";
import { authClient } from "../lib/authClient";
import { useMe } from "../lib/useMe";

/** Who is signed in, with which role, and the way out. */
export function UserMenu() {
  const me = useMe();
  const queryClient = useQueryClient();
  if (!me) return null;
  const signOut = async () => {
    await authClient.signOut();
    queryClient.clear();
    window.location.assign("/sign-in");
  };
  return (
    <div className="me" data-testid="signed-in">
      <span>
        <strong>{me.name}</strong> · {me.role}
      </span>
      <span>{me.email}</span>
      <button type="button" onClick={signOut}>
        Sign out
      </button>
    </div>
  );
}
