"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/trpc/react";

/** Seconds since a moment, as "12 s ago" or "3 min ago". */
function ago(at: Date, now: number): string {
  const s = Math.max(0, Math.round((now - at.getTime()) / 1000));
  return s < 90 ? `${s} s ago` : `${Math.round(s / 60)} min ago`;
}

/**
 * While a worker run has no finished iteration, what its job is doing: waiting in the queue (behind how many), or
 * setting up, in the worker's own words, with its last heartbeat. Gone once the first iteration is stored.
 */
export function RunStarting({
  run,
}: {
  run: { id: string; status: string; iteration: number; kind: string };
}) {
  const trpc = useTRPC();
  const starting = run.kind === "worker" && run.iteration === 0 && ["queued", "running"].includes(run.status);
  const job = useQuery({
    ...trpc.jobs.forRun.queryOptions({ runId: run.id }),
    enabled: starting,
    refetchInterval: starting ? 1_000 : false,
  });
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!starting) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [starting]);
  if (!starting || !job.data) return null;
  const j = job.data;
  const waiting =
    j.status === "queued"
      ? j.runAt.getTime() > now
        ? `Waiting to retry (attempt ${j.attempts + 1}) in ${Math.ceil((j.runAt.getTime() - now) / 1000)} s.`
        : `Queued: ${j.ahead === 0 ? "next for a worker" : `${j.ahead} job${j.ahead === 1 ? "" : "s"} ahead of it`}. Is a worker running (npm start runs one)?`
      : null;
  return (
    <section className="panel" aria-label="Starting" data-testid="run-starting" aria-live="polite">
      <h2>Starting</h2>
      <p style={{ margin: 0 }} data-testid="run-starting-message">
        {waiting ?? j.message ?? "A worker took the run and is setting up."}
      </p>
      <p className="hint" style={{ margin: "6px 0 0" }}>
        {j.startedAt ? `Started ${ago(j.startedAt, now)}` : "Not started yet"}
        {j.heartbeatAt ? ` · worker's last heartbeat ${ago(j.heartbeatAt, now)}` : ""}. The charts fill in as
        iterations finish.
      </p>
      {j.error && j.status === "queued" ? <div className="error">{j.error}</div> : null}
    </section>
  );
}
