"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { methodLabelOf } from "@/core/train/methods";
import { isActiveStatus } from "@/shared/enums";
import { useTRPC } from "@/trpc/react";
import { usedSettings } from "../configForm";
import { count, pct, seconds } from "../format";
import styles from "../runs.module.css";
import { CurveChart, type CurveRow } from "./CurveChart";
import { MetricsTable } from "./MetricsTable";
import { RunActions } from "./RunActions";
import { StatusBadge } from "./StatusBadge";

function resultSeconds(result: unknown): number | null {
  const s = (result as { seconds?: unknown } | null)?.seconds;
  return typeof s === "number" ? s : null;
}

/** One run: live curves while it is queued or running, its metrics, its config and its error. */
export function RunDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const run = useQuery({
    ...trpc.runs.get.queryOptions({ id }),
    refetchInterval: (query) =>
      query.state.data && !isActiveStatus(query.state.data.status) ? false : 1_000,
  });
  if (run.error) return <div className="error">{run.error.message}</div>;
  if (!run.data) return <p className="hint">Loading…</p>;
  const r = run.data;
  const rows: CurveRow[] = r.metrics.map((m) => ({
    iteration: m.iteration,
    syntheticSuccess: m.syntheticSuccess,
    realSuccess: m.realSuccess,
    meanReward: m.meanReward,
    realTransitions: m.realTransitions,
    syntheticTransitions: m.syntheticTransitions,
  }));
  const took = resultSeconds(r.result);
  const reference =
    r.untrainedRealSuccess !== null ? { y: r.untrainedRealSuccess, label: "untrained" } : null;

  return (
    <div className={styles.page}>
      <div className={styles.header}>
        <h1>{r.name}</h1>
        <StatusBadge status={r.status} />
        <span className="hint mono">{r.id}</span>
        <span style={{ flex: 1 }} />
        <Link className="button" href={`/curriculum?run=${r.id}`}>
          Curriculum heatmap
        </Link>
        <Link className="button" href={`/trajectories?run=${r.id}`}>
          Episodes
        </Link>
        <RunActions id={r.id} status={r.status} />
      </div>
      <p className="sub" style={{ margin: 0 }}>
        {methodLabelOf(r.method)} · {r.algorithm.toUpperCase()} · {r.domain} · created{" "}
        {r.createdAt.toLocaleString()}
        {r.finishedAt ? ` · finished ${r.finishedAt.toLocaleString()}` : ""}
        {took !== null ? ` · took ${seconds(took)}` : ""}
      </p>

      {r.error ? (
        <div className="error" data-testid="run-error">
          {r.status === "queued" ? "The last attempt failed and will be retried:\n" : ""}
          {r.error}
        </div>
      ) : null}

      <dl className={styles.stats}>
        <div className={styles.stat}>
          <dt>Progress</dt>
          <dd data-testid="run-iteration">
            {r.iteration}
            <small> / {r.plannedIterations ?? "—"} iterations</small>
          </dd>
          <div className="progress" style={{ marginTop: 6 }}>
            <div style={{ width: `${Math.round(r.progress * 100)}%` }} />
          </div>
        </div>
        <div className={styles.stat}>
          <dt>Real-env success (final)</dt>
          <dd data-testid="run-final-success">
            {pct(r.finalRealSuccess)}
            {r.untrainedRealSuccess !== null ? (
              <small> from {pct(r.untrainedRealSuccess)} untrained</small>
            ) : null}
          </dd>
        </div>
        <div className={styles.stat}>
          <dt>Real transitions used</dt>
          <dd>{count(r.realTransitions)}</dd>
        </div>
        <div className={styles.stat}>
          <dt>Synthetic transitions</dt>
          <dd>{count(r.syntheticTransitions)}</dd>
        </div>
      </dl>

      <div className={styles.charts}>
        <CurveChart
          title="Success rate"
          subtitle="synthetic rollouts · real-env test tasks"
          testId="success-chart"
          data={rows}
          xMax={r.plannedIterations}
          percent
          reference={reference}
          series={[
            { key: "syntheticSuccess", label: "synthetic success", color: "#7a5af8", dashed: true },
            { key: "realSuccess", label: "real-env test success", color: "#4f46e5" },
          ]}
        />
        <CurveChart
          title="Mean reward"
          subtitle="of the iteration's rollouts"
          testId="reward-chart"
          data={rows}
          xMax={r.plannedIterations}
          series={[{ key: "meanReward", label: "mean reward", color: "#0e9384" }]}
        />
        <CurveChart
          title="Transitions used"
          subtitle="cumulative"
          testId="transitions-chart"
          data={rows}
          xMax={r.plannedIterations}
          series={[
            { key: "realTransitions", label: "real", color: "#dc6803" },
            { key: "syntheticTransitions", label: "synthetic", color: "#98a2b3", dashed: true },
          ]}
        />
      </div>

      <section className="panel" aria-label="Metrics">
        <h2>Per-iteration metrics</h2>
        <MetricsTable metrics={r.metrics} />
      </section>
      <section className="panel" aria-label="Config">
        <h2>Config</h2>
        <dl className={styles.config} data-testid="run-config">
          {usedSettings(r.config).map(({ path, label, value }) => (
            <div key={path} title={path}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}
