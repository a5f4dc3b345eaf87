"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { methodLabelOf } from "@/core/train/methods";
import { Allowed } from "@/features/auth/components/Allowed";
import { isActiveStatus } from "@/shared/enums";
import { useTRPC } from "@/trpc/react";
import { budgetText, count, iterationsText, pct, progressPercent } from "../format";
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
        <Allowed permission="run:launch">
          <Link href="/runs/new" className="button" style={{ background: "var(--accent)", color: "#fff" }}>
            New run
          </Link>
        </Allowed>
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
      {/* Fits a 1440 px window: the method, algorithm and domain share the name's cell, long names are cut
          with the whole name (and the id) in their title, and the run's id and config are on its own page. */}
      <div className={styles.tableFit} data-testid="runs-table-wrap">
        <table className={`grid ${styles.runsTable}`} aria-label="Runs">
          <thead>
            <tr>
              <th aria-label="Select" />
              <th>Run</th>
              <th>Status</th>
              <th>Progress</th>
              <th className={styles.num}>Real transitions</th>
              <th className={styles.num}>Synthetic transitions</th>
              <th
                className={styles.num}
                title="on held-out test tasks in the real environment; for an imported domain, which has none, the synthetic-success proxy (marked so)"
              >
                Test success (final)
              </th>
              <th>Created</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {runs.data?.length === 0 ? (
              <tr>
                <td colSpan={9} className={styles.empty}>
                  No runs yet. Launch one with <Link href="/runs/new">New run</Link>.
                </td>
              </tr>
            ) : null}
            {runs.data?.map((run) => {
              const percent = progressPercent(run.progress);
              const budget = budgetText(run.realTransitions, run.realBudget);
              return (
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
                      <Link href={`/runs/${run.id}`} title={`${run.name} (${run.id})`}>
                        {run.name}
                      </Link>
                      <small>
                        {run.kind === "external" ? "external trainer · " : ""}
                        {methodLabelOf(run.method)} · {run.algorithm.toUpperCase()} · {run.domain}
                      </small>
                    </div>
                  </td>
                  <td>
                    <StatusBadge status={run.status} />
                  </td>
                  <td>
                    <div className={styles.progressCell} title={`${percent}%`}>
                      <div className="progress">
                        <div style={{ width: `${percent}%` }} />
                      </div>
                      <span data-testid="run-progress">
                        {iterationsText(run.iteration, run.plannedIterations)}
                      </span>
                      {budget !== null ? <span data-testid="run-budget">{budget}</span> : null}
                    </div>
                  </td>
                  <td className={styles.num}>{count(run.realTransitions)}</td>
                  <td className={styles.num}>{count(run.syntheticTransitions)}</td>
                  <td className={styles.num} data-testid="run-final">
                    {run.proxy?.final ? (
                      <span title="an imported domain has no real environment: synthetic success on its held-out tasks">
                        {pct(run.proxy.final.syntheticSuccess)} <small className="hint">proxy</small>
                      </span>
                    ) : (
                      pct(run.finalRealSuccess)
                    )}
                  </td>
                  <td className={`hint ${styles.created}`} title={run.createdAt.toLocaleString()}>
                    {run.createdAt.toLocaleString("en-US", {
                      month: "short",
                      day: "numeric",
                      hour: "2-digit",
                      minute: "2-digit",
                    })}
                  </td>
                  <td>
                    <div className={styles.actions}>
                      <Allowed permission="run:cancel">
                        <RunActions id={run.id} status={run.status} />
                      </Allowed>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
