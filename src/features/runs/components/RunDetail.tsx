"use client";

import { NotFound } from "@/features/shared/components/NotFound";
import { TrustPanel } from "@/features/trust/components/TrustPanel";
import { isNotFound } from "@/trpc/react";
import styles from "../runs.module.css";
import { runView } from "../runView";
import { useRun } from "../useRun";
import { LiveSessions } from "./LiveSessions";
import { MetricsTable } from "./MetricsTable";
import { RunCharts } from "./RunCharts";
import { RunConfig } from "./RunConfig";
import { RunHeader } from "./RunHeader";
import { RunNotes } from "./RunNotes";
import { RunStarting } from "./RunStarting";
import { RunStats } from "./RunStats";

/** One run: live curves while it is queued or running, its metrics, its config and its error. */
export function RunDetail({ id }: { id: string }) {
  const run = useRun(id);
  if (isNotFound(run.error))
    return (
      <NotFound
        title="Run not found"
        detail={run.error?.message}
        back={{ href: "/runs", label: "Back to runs" }}
      />
    );
  if (run.error && !run.data) return <div className="error">{run.error.message}</div>;
  if (!run.data) return <p className="hint">Loading…</p>;
  const r = run.data;
  const view = runView(r);

  return (
    <div className={styles.page}>
      <RunHeader run={r} imported={view.imported} external={view.external} />

      {r.error ? (
        <div className="error" data-testid="run-error">
          {r.status === "queued" ? "The last attempt failed and will be retried:\n" : ""}
          {r.error}
        </div>
      ) : null}

      <RunStarting run={r} />
      <RunStats run={r} view={view} />
      <TrustPanel runId={r.id} live={r.status === "queued" || r.status === "running"} />
      <RunNotes run={r} />
      <RunCharts run={r} view={view} />

      {view.external ? <LiveSessions runId={r.id} /> : null}

      <section className="panel" aria-label="Metrics">
        <h2>Per-iteration metrics</h2>
        <MetricsTable metrics={r.metrics} />
      </section>
      <RunConfig config={r.config} />
    </div>
  );
}
