"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { Allowed } from "@/features/auth/components/Allowed";
import { countOf } from "@/features/shared/lib/countOf";
import { isActiveStatus } from "@/shared/enums";
import { useTRPC } from "@/trpc/react";
import styles from "../runs.module.css";
import { RunRow } from "./RunRow";

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
          {runs.data ? countOf(runs.data.length, "run") : ""}
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
            {runs.data?.map((run) => (
              <RunRow
                key={run.id}
                run={run}
                selected={selected.includes(run.id)}
                highlighted={run.id === launched}
                onToggle={() => toggle(run.id)}
              />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
