"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Allowed } from "@/features/auth/components/Allowed";
import { useTRPC } from "@/trpc/react";

/** The replay buffer's state, and the jobs that maintain it and feed the annotation queue. */
export function BufferPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const stats = useQuery({ ...trpc.buffer.stats.queryOptions(), refetchInterval: 3_000 });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.jobs.list.queryKey() });
  const index = useMutation(trpc.jobs.index.mutationOptions({ onSuccess: refresh }));
  const teacher = useMutation(trpc.jobs.teacher.mutationOptions({ onSuccess: refresh }));
  const domains = useQuery(trpc.domains.list.queryOptions());
  const [domain, setDomain] = useState("household");
  const [limit, setLimit] = useState(200);
  const s = stats.data;
  return (
    <section className="panel" aria-label="Replay buffer">
      <h2>Replay buffer</h2>
      {stats.error ? <div className="error">{stats.error.message}</div> : null}
      {s ? (
        <div data-testid="buffer-stats">
          {s.message ? <div className="error">{s.message}</div> : null}
          <p className="hint">
            {s.totalRows ?? "?"} transitions in LanceDB · {s.pendingSteps} steps waiting to be indexed ·
            embedder <span className="mono">{s.embedder?.id ?? "?"}</span> ·{" "}
            {s.annIndex ? "ANN index" : "exact search (no ANN index yet)"}
          </p>
          <p className="hint">
            {s.rows.map((r) => `${r.domain}/${r.source}: ${r.rows}`).join(" · ") || "empty"}
          </p>
        </div>
      ) : null}
      <Allowed permission="data:index">
        <div className="filters">
          <button type="button" onClick={() => index.mutate({ rebuild: false })}>
            Index pending steps
          </button>
          <button type="button" onClick={() => index.mutate({ rebuild: true })}>
            Rebuild from the database
          </button>
        </div>
      </Allowed>
      <h2>Teacher reasoning traces</h2>
      <p className="hint">
        The teacher explains offline transitions; its traces go to the annotation queue for review.
      </p>
      {/* The inputs only for a role that may write traces: without the button they would do nothing. */}
      <Allowed permission="data:teacher">
        <div className="filters">
          <label className="field">
            Domain
            <select aria-label="Teacher domain" value={domain} onChange={(e) => setDomain(e.target.value)}>
              {(domains.data ?? [{ name: "household" }]).map((d) => (
                <option key={d.name} value={d.name}>
                  {d.name}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            Traces
            <input
              aria-label="Teacher traces"
              type="number"
              min={1}
              value={limit}
              onChange={(e) => setLimit(Number(e.target.value))}
            />
          </label>
          <button type="button" className="primary" onClick={() => teacher.mutate({ domain, limit, k: 4 })}>
            Write traces
          </button>
        </div>
      </Allowed>
      {teacher.error ? <div className="error">{teacher.error.message}</div> : null}
    </section>
  );
}
