"use client";

import type { ReactNode } from "react";
import { useMe } from "../lib/useMe";

/**
 * Shows `children` only to a role the server would accept them from (`permission` as "run:launch"); others see
 * `fallback`, or, when `explain` names the action, a line that says which role they lack.
 */
export function Allowed({
  permission,
  explain,
  fallback = null,
  children,
}: {
  permission: string;
  explain?: string;
  fallback?: ReactNode;
  children: ReactNode;
}) {
  const me = useMe();
  if (!me) return null;
  if (me.permissions.includes(permission)) return <>{children}</>;
  if (!explain) return <>{fallback}</>;
  return (
    <section className="panel" role="note" data-testid="not-allowed">
      <p className="hint" style={{ margin: 0 }}>
        Your role ({me.role}) may not {explain}. An admin can change your role on the Users page.
      </p>
    </section>
  );
}
