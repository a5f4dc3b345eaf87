"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { methodLabelOf } from "@/core/train/methods";
import { isActiveStatus } from "@/shared/enums";
import { useTRPC } from "@/trpc/react";
import { count, pct } from "../format";
import styles from "../runs.module.css";
import { RunActions } from "./RunActions";
import { StatusBadge } from "./StatusBadge";

export function RunsPage() {
  const trpc = useTRPC();
  const router = useRouter();
  const launched = useSearchParams().get("launched");
  const [selected, setSelected] = useState<string[]>([]);
  const runs = useQuery({
    ...trpc.runs.list.queryOptions({ limit: 200 }),
    // Live while anything is queued or running; slow otherwise.
    refetchInterval: (query) => (query.state.data?.some((r) => isActiveStatus(r.status)) ? 1_000 : 5_000),
  });
  const toggle = (id: string) =>
    setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));

  return (
    <div className={styles.page}>
      <div className={styles.toolbar}>
        <Link href="/runs/new" className="button" style={{ background: "var(--accent)", color: "#fff" }}>
          New run
        </Link>
        <button
          type="button"
          disabled={selected.length === 0}
          onClick={() => router.push(`/runs/compare?ids=${selected.map(encodeURIComponent).join(",")}`)}
        >
          Compare selected{selected.length > 0 ? ` (${selected.length})` : ""}
        </button>
        <span className={styles.spacer} />
        <span className="hint">
          {runs.data ? `${runs.data.length} runs` : ""}
          {runs.data?.some((r) => isActiveStatus(r.status)) ? " · live" : ""}
        </span>
      </div>
      {runs.error ? <div className="error">{runs.error.message}</div> : null}
      <table className="grid" aria-label="Runs">
        <thead>
          <tr>
            <th aria-label="Select" />
            <th>Run</th>
            <th>Status</th>
            <th>Progress</th>
            <th>Method</th>
            <th>Domain</th>
            <th className={styles.num}>Real transitions</th>
            <th className={styles.num}>Synthetic transitions</th>
            <th className={styles.num}>Real-env success</th>
            <th>Created</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {runs.data?.length === 0 ? (
            <tr>
              <td colSpan={11} className={styles.empty}>
                No runs yet. Launch one with <Link href="/runs/new">New run</Link>.
              </td>
            </tr>
          ) : null}
          {runs.data?.map((run) => (
            <tr
              key={run.id}
              data-testid="run-row"
              data-run-id={run.id}
              className={run.id === launched ? styles.highlight : undefined}
            >
              <td>
                <input
                  type="checkbox"
                  aria-label={`Select ${run.name}`}
                  checked={selected.includes(run.id)}
                  onChange={() => toggle(run.id)}
                />
              </td>
              <td>
                <div className={styles.nameCell}>
                  <Link href={`/runs/${run.id}`}>{run.name}</Link>
                  <small>{run.id}</small>
                </div>
              </td>
              <td>
                <StatusBadge status={run.status} />
              </td>
              <td>
                <div className={styles.progressCell} title={`${Math.round(run.progress * 100)}%`}>
                  <div className="progress">
                    <div style={{ width: `${Math.round(run.progress * 100)}%` }} />
                  </div>
                  <span data-testid="run-progress">
                    {run.plannedIterations !== null
                      ? `it ${run.iteration}/${run.plannedIterations}`
                      : `${Math.round(run.progress * 100)}%`}
                  </span>
                </div>
              </td>
              <td>
                {methodLabelOf(run.method)} <span className="hint">{run.algorithm.toUpperCase()}</span>
              </td>
              <td>{run.domain}</td>
              <td className={styles.num}>{count(run.realTransitions)}</td>
              <td className={styles.num}>{count(run.syntheticTransitions)}</td>
              <td className={styles.num} data-testid="run-final">
                {pct(run.finalRealSuccess)}
              </td>
              <td className="hint">{run.createdAt.toLocaleString()}</td>
              <td>
                <div className={styles.actions}>
                  <RunActions id={run.id} status={run.status} />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
