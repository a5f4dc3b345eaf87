"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { methodLabelOf } from "@/core/train/methods";
import { isActiveStatus } from "@/shared/enums";
import { useTRPC } from "@/trpc/react";
import { byIteration, simGap } from "../curves";
import { budgetText, count, gapPoints, iterationsText, pct, progressPercent, seriesStyle } from "../format";
import styles from "../runs.module.css";
import { CurveChart } from "./CurveChart";
import { SeriesSwatch } from "./SeriesLegend";
import { StatusBadge } from "./StatusBadge";
import type { Series } from "./series";

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
  const series: Series[] = runs.data.map((r, i) => ({ ...seriesStyle(i), key: `r${i}`, label: r.name }));
  const real = byIteration(runs.data, "realSuccess");
  const withGap = runs.data.map((r) => ({
    ...r,
    metrics: r.metrics.map((m) => ({ ...m, simGap: simGap(m) })),
  }));
  const measuresGap = withGap.some((r) => r.metrics.some((m) => m.simGap !== null));
  const realSeries = series.map((s, i) => ({ ...s, finalAt: real.finals[i] ?? null }));
  return (
    <div className={styles.page}>
      <table className="grid" aria-label="Compared runs">
        <thead>
          <tr>
            <th>Run</th>
            <th>Status</th>
            <th>Method</th>
            <th>Domain</th>
            <th>Progress</th>
            <th className={styles.num}>Real transitions</th>
            <th className={styles.num}>Synthetic transitions</th>
            <th className={styles.num}>Real-env success (final)</th>
            <th
              className={styles.num}
              title="test success in the synthetic environment minus in the real one"
            >
              Sim-to-real gap (final)
            </th>
          </tr>
        </thead>
        <tbody>
          {runs.data.map((r, i) => (
            <tr key={r.id} data-testid="compared-run">
              <td>
                {series[i] ? <SeriesSwatch series={series[i]} /> : null}
                <Link href={`/runs/${r.id}`}>{r.name}</Link>
              </td>
              <td>
                <StatusBadge status={r.status} />
              </td>
              <td>
                {methodLabelOf(r.method)} <span className="hint">{r.algorithm.toUpperCase()}</span>
              </td>
              <td>{r.domain}</td>
              <td>
                <div className={styles.progressCell} title={`${progressPercent(r.progress)}%`}>
                  <div className="progress">
                    <div style={{ width: `${progressPercent(r.progress)}%` }} />
                  </div>
                  <span data-testid="compared-iterations">
                    {iterationsText(r.iteration, r.plannedIterations)}
                  </span>
                  {r.realBudget !== null ? (
                    <span data-testid="compared-budget">{budgetText(r.realTransitions, r.realBudget)}</span>
                  ) : null}
                </div>
              </td>
              <td className={styles.num}>{count(r.realTransitions)}</td>
              <td className={styles.num}>{count(r.syntheticTransitions)}</td>
              <td className={styles.num} data-testid="compared-final">
                {pct(r.finalRealSuccess)}
              </td>
              <td className={styles.num} data-testid="compared-gap">
                {gapPoints(r.finalSimSuccess, r.finalRealSuccess)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className={styles.charts}>
        <CurveChart
          title="Real-env test success"
          subtitle="held-out real tasks; last point: final"
          testId="compare-real"
          data={real.rows}
          series={realSeries}
          percent
          height={280}
        />
        <CurveChart
          title="Synthetic success"
          subtitle="rollouts in the experience model"
          testId="compare-synthetic"
          data={byIteration(runs.data, "syntheticSuccess").rows}
          series={series}
          percent
          height={280}
        />
        {measuresGap ? (
          <CurveChart
            title="Sim-to-real gap"
            subtitle="test success, synthetic minus real env"
            testId="compare-gap"
            data={byIteration(withGap, "simGap").rows}
            series={series}
            percent
            signed
            height={280}
          />
        ) : null}
        <CurveChart
          title="Mean reward"
          subtitle="of each iteration's rollouts"
          testId="compare-reward"
          data={byIteration(runs.data, "meanReward").rows}
          series={series}
          height={280}
        />
      </div>
    </div>
  );
}
