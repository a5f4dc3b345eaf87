"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/trpc/react";

/** Seconds since a date, as "12 s" or "3 min". */
function age(since: Date, now: number): string {
  const s = Math.max(0, Math.round((now - since.getTime()) / 1000));
  return s < 120 ? `${s} s` : `${Math.round(s / 60)} min`;
}

/**
 * An external run's episodes being played right now through the environment server, each with its steps so far
 * (they are stored as they happen): what the trainer is doing, live.
 */
export function LiveSessions({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const live = useQuery({ ...trpc.runs.liveSessions.queryOptions({ id: runId }), refetchInterval: 1_000 });
  const rows = live.data ?? [];
  const now = Date.now();
  return (
    <section className="panel" aria-label="Live sessions">
      <h2>
        Live sessions{" "}
        <span className="badge muted" data-testid="live-count">
          {rows.length}
        </span>
      </h2>
      {rows.length === 0 ? (
        <p className="hint">No episode is being played through the environment server right now.</p>
      ) : (
        <table data-testid="live-sessions">
          <thead>
            <tr>
              <th>Episode</th>
              <th>Task</th>
              <th>Environment</th>
              <th>Policy version</th>
              <th>Steps so far</th>
              <th>Started</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td className="mono">
                  <Link href={`/trajectories/${r.id}`}>{r.episodeId ?? r.id}</Link>
                </td>
                <td className="mono">{r.taskId}</td>
                <td>{r.source}</td>
                <td>{r.iteration ?? "–"}</td>
                <td>{r.steps}</td>
                <td>{age(r.createdAt, now)} ago</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
