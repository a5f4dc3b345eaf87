"use client";

import type { RegressionCheck } from "../types";

const STATUS_TONE: Record<string, string> = {
  succeeded: "good",
  failed: "bad",
  cancelled: "muted",
  running: "",
  queued: "muted",
};

/** The versions run against the domain's suite, newest first, with the worker's progress live. */
export function CheckList({ checks }: { checks: RegressionCheck[] | undefined }) {
  if (!checks) return <p className="hint">Loading the versions…</p>;
  if (checks.length === 0)
    return <p className="hint">No version has been run against this suite yet: run one above.</p>;
  return (
    <div className="scroll-x">
      <table className="grid" aria-label="Versions run">
        <thead>
          <tr>
            <th>Version</th>
            <th>Status</th>
            <th>Progress</th>
            <th>Started</th>
          </tr>
        </thead>
        <tbody>
          {checks.map((c) => (
            <tr key={c.id} data-testid="check-row" data-status={c.status}>
              <td className="mono" data-testid="check-label">
                {c.label}
              </td>
              <td>
                <span className={`badge ${STATUS_TONE[c.status] ?? ""}`} data-testid="check-status">
                  {c.status}
                </span>
                {c.status === "failed" && c.error ? <div className="error">{c.error}</div> : null}
              </td>
              <td>
                {c.status === "running" || c.status === "queued" ? (
                  <div title={c.message ?? ""}>
                    <div className="progress" data-testid="check-progress">
                      <div style={{ width: `${Math.round((c.progress ?? 0) * 100)}%` }} />
                    </div>
                    <span className="hint">{c.message ?? "waiting for the worker"}</span>
                  </div>
                ) : (
                  <span className="hint">{c.message ?? ""}</span>
                )}
              </td>
              <td className="hint">
                {new Date(c.createdAt).toLocaleString()}
                {c.createdBy ? ` · ${c.createdBy}` : ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
