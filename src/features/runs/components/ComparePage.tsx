"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { methodLabelOf } from "@/core/train/methods";
import { isActiveStatus } from "@/shared/enums";
import { useTRPC } from "@/trpc/react";
import { count, pct, SERIES_COLORS } from "../format";
import styles from "../runs.module.css";
import { CurveChart, type CurveRow, type Series } from "./CurveChart";
import { StatusBadge } from "./StatusBadge";

type Metric = "realSuccess" | "syntheticSuccess" | "meanReward";

interface ComparedRun {
  id: string;
  metrics: ReadonlyArray<Record<Metric, number | null> & { iteration: number }>;
}

/** One row per iteration, one column per run (r0, r1, …): the shape a multi-line chart wants. */
function byIteration(runs: readonly ComparedRun[], metric: Metric): CurveRow[] {
  const rows = new Map<number, CurveRow>();
  runs.forEach((run, i) => {
    for (const m of run.metrics) {
      const row = rows.get(m.iteration) ?? ({ iteration: m.iteration } as CurveRow);
      row[`r${i}`] = m[metric];
      rows.set(m.iteration, row);
    }
  });
  return [...rows.values()].sort((a, b) => a.iteration - b.iteration);
}

export function ComparePage() {
  const trpc = useTRPC();
  const ids = (useSearchParams().get("ids") ?? "").split(",").filter(Boolean);
  const runs = useQuery({
    ...trpc.runs.compare.queryOptions({ ids }),
    enabled: ids.length > 0,
    refetchInterval: (query) => (query.state.data?.some((r) => isActiveStatus(r.status)) ? 2_000 : false),
  });
  if (ids.length === 0)
    return (
      <p className="hint">
        Pick runs with the checkboxes on <Link href="/runs">Runs</Link>, then “Compare selected”.
      </p>
    );
  if (runs.error) return <div className="error">{runs.error.message}</div>;
  if (!runs.data) return <p className="hint">Loading…</p>;
  const series: Series[] = runs.data.map((r, i) => ({
    key: `r${i}`,
    label: r.name,
    color: SERIES_COLORS[i % SERIES_COLORS.length] as string,
  }));
  return (
    <div className={styles.page}>
      <table className="grid" aria-label="Compared runs">
        <thead>
          <tr>
            <th>Run</th>
            <th>Status</th>
            <th>Method</th>
            <th>Domain</th>
            <th className={styles.num}>Iterations</th>
            <th className={styles.num}>Real transitions</th>
            <th className={styles.num}>Synthetic transitions</th>
            <th className={styles.num}>Real-env success (final)</th>
          </tr>
        </thead>
        <tbody>
          {runs.data.map((r, i) => (
            <tr key={r.id} data-testid="compared-run">
              <td>
                <span className={styles.swatch} style={{ background: series[i]?.color }} />
                <Link href={`/runs/${r.id}`}>{r.name}</Link>
              </td>
              <td>
                <StatusBadge status={r.status} />
              </td>
              <td>
                {methodLabelOf(r.method)} <span className="hint">{r.algorithm.toUpperCase()}</span>
              </td>
              <td>{r.domain}</td>
              <td className={styles.num}>{r.iteration}</td>
              <td className={styles.num}>{count(r.realTransitions)}</td>
              <td className={styles.num}>{count(r.syntheticTransitions)}</td>
              <td className={styles.num}>{pct(r.finalRealSuccess)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className={styles.charts}>
        <CurveChart
          title="Real-env test success"
          subtitle="held-out real tasks, per evaluation"
          testId="compare-real"
          data={byIteration(runs.data, "realSuccess")}
          series={series}
          percent
          height={280}
        />
        <CurveChart
          title="Synthetic success"
          subtitle="rollouts in the experience model"
          testId="compare-synthetic"
          data={byIteration(runs.data, "syntheticSuccess")}
          series={series}
          percent
          height={280}
        />
        <CurveChart
          title="Mean reward"
          subtitle="of each iteration's rollouts"
          testId="compare-reward"
          data={byIteration(runs.data, "meanReward")}
          series={series}
          height={280}
        />
      </div>
    </div>
  );
}
