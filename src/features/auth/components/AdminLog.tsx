"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";

/** What each audit action means, in the page's words. */
const ACTIONS: Record<string, string> = {
  "user.create": "added",
  "user.role": "changed the role of",
  "user.password": "set the password of",
  "user.deactivate": "deactivated",
  "user.reactivate": "reactivated",
  "guidelines.edit": "edited the guidelines",
  "annotations.assign": "assigned annotation work to",
  "annotations.reassign": "reassigned annotation items to",
};

/** A short account of an entry's detail: a role change's from → to, a deactivation's reason. */
function detailOf(detail: unknown): string {
  if (!detail || typeof detail !== "object") return "";
  const d = detail as Record<string, unknown>;
  if (typeof d.from === "string" && typeof d.to === "string") return `${d.from} → ${d.to}`;
  if (typeof d.reason === "string") return d.reason;
  if (typeof d.role === "string") return `as ${d.role}`;
  // Anything else: its plain values, as "assigned 20 · overlapping 5".
  return Object.entries(d)
    .filter(([key, v]) => key !== "email" && (typeof v === "string" || typeof v === "number"))
    .map(([key, v]) => `${key} ${v}`)
    .join(" · ");
}

/** The admin audit log: who changed what about people and settings, newest first (admins only). */
export function AdminLog() {
  const trpc = useTRPC();
  const log = useQuery(trpc.users.auditLog.queryOptions());
  return (
    <section
      aria-label="Audit log"
      style={{ display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 8 }}
    >
      <h2>Audit log</h2>
      {log.error ? <div className="error">{log.error.message}</div> : null}
      {log.data && log.data.length === 0 ? <p className="hint">No admin actions yet.</p> : null}
      {log.data?.length ? (
        <table className="grid" data-testid="audit-log">
          <thead>
            <tr>
              <th>When</th>
              <th>Who</th>
              <th>What</th>
              <th>To</th>
              <th>Detail</th>
            </tr>
          </thead>
          <tbody>
            {log.data.map((entry) => (
              <tr key={entry.id} data-testid="audit-row">
                <td className="hint">{entry.createdAt.toLocaleString()}</td>
                <td className="mono">{entry.actorEmail ?? entry.actor}</td>
                <td title={entry.action}>{ACTIONS[entry.action] ?? entry.action}</td>
                <td className="mono">{entry.targetEmail ?? entry.target ?? ""}</td>
                <td>{detailOf(entry.detail)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
