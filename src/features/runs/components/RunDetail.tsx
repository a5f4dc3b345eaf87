"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { isRealDomainName } from "@/core/envs/names";
import { methodLabelOf } from "@/core/train/methods";
import { Allowed } from "@/features/auth/components/Allowed";
import { NotFound } from "@/features/shared/components/NotFound";
import { isActiveStatus } from "@/shared/enums";
import { isNotFound, useTRPC } from "@/trpc/react";
import { evaluatedOn, usedSettings } from "../configForm";
import { type CurveRow, finalIteration, proxyOfExtra, simGap, withFinal } from "../curves";
import { budgetText, count, gapPoints, iterationsText, pct, progressPercent, seconds } from "../format";
import styles from "../runs.module.css";
import { CurveChart } from "./CurveChart";
import { DeleteRun } from "./DeleteRun";
import { LiveSessions } from "./LiveSessions";
import { MetricsTable } from "./MetricsTable";
import { RunActions } from "./RunActions";
import { StatusBadge } from "./StatusBadge";

type ProxyFigures = {
  syntheticSuccess: number;
  confidence: number | null;
  actionAgreement: number | null;
  judgeSuccess: number | null;
  judgeFailures: number | null;
};

/** An imported-domain run's final proxies, each said to be one; the LLM judge's only when the run had one. */
function proxyStats(final: ProxyFigures | null) {
  const judged = final?.judgeSuccess !== null && final?.judgeSuccess !== undefined;
  return [
    {
      testId: "run-final-proxy",
      label: "Proxy: synthetic success (final)",
      title: "success on the held-out imported tasks in the synthetic environment: a proxy, not real success",
      value: final?.syntheticSuccess ?? null,
    },
    {
      testId: "run-final-agreement",
      label: "Proxy: action agreement (final)",
      title: "how often the policy's likeliest action is the one the held-out successful logs took",
      value: final?.actionAgreement ?? null,
    },
    {
      testId: "run-final-confidence",
      label: "Proxy: model confidence (final)",
      title: "the experience model's mean confidence over the evaluation rollouts",
      value: final?.confidence ?? null,
    },
    ...(judged
      ? [
          {
            testId: "run-final-judge",
            label: "Proxy: LLM judge success (final)",
            title: `an LLM judge's verdict on each evaluation episode's final state${final?.judgeFailures ? ` (${final.judgeFailures} episode(s) it could not judge left out)` : ""}`,
            value: final?.judgeSuccess ?? null,
          },
        ]
      : []),
  ];
}

function resultSeconds(result: unknown): number | null {
  const s = (result as { seconds?: unknown } | null)?.seconds;
  return typeof s === "number" ? s : null;
}

/** One run: live curves while it is queued or running, its metrics, its config and its error. */
export function RunDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const run = useQuery({
    ...trpc.runs.get.queryOptions({ id }),
    // Live while queued or running; never again once the server said there is no such run.
    refetchInterval: (query) =>
      isNotFound(query.state.error) || (query.state.data && !isActiveStatus(query.state.data.status))
        ? false
        : 1_000,
  });
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
  const heldOut = evaluatedOn(r.config);
  const rows: CurveRow[] = r.metrics.map((m) => ({
    iteration: m.iteration,
    syntheticSuccess: m.syntheticSuccess,
    realSuccess: m.realSuccess,
    simSuccess: m.simSuccess,
    simGap: simGap(m),
    meanReward: m.meanReward,
    realTransitions: m.realTransitions,
    syntheticTransitions: m.syntheticTransitions,
    ...proxyOfExtra(m.extra),
  }));
  // The final evaluation ends the real-env curve, so the curve's last point is the header's "final" figure.
  const finalAt = r.finalRealSuccess !== null ? finalIteration(r.iteration, r.metrics) : null;
  const successRows = withFinal(
    withFinal(rows, "realSuccess", r.finalRealSuccess, finalAt ?? 0),
    "simSuccess",
    r.finalSimSuccess,
    finalAt ?? 0,
  );
  const gapRows = successRows.map((row) => ({
    ...row,
    simGap: simGap({ simSuccess: row.simSuccess ?? null, realSuccess: row.realSuccess ?? null }),
  }));
  const external = r.kind === "external";
  // A domain with logs and no environment: every test figure is a proxy, and is named one.
  const imported = !isRealDomainName(r.domain) && !external;
  const measuresGap =
    !imported && (r.finalSimSuccess !== null || r.metrics.some((m) => m.simSuccess !== null));
  const budget = budgetText(r.realTransitions, r.realBudget);
  const took = resultSeconds(r.result);
  const untrainedProxy = r.proxy?.untrained?.syntheticSuccess ?? null;
  const reference = imported
    ? untrainedProxy !== null
      ? { y: untrainedProxy, label: "untrained" }
      : null
    : r.untrainedRealSuccess !== null
      ? { y: r.untrainedRealSuccess, label: "untrained" }
      : null;
  const proxyRows = withFinal(
    withFinal(
      withFinal(
        rows,
        "simSuccess",
        r.proxy?.final?.syntheticSuccess ?? null,
        finalIteration(r.iteration, r.metrics),
      ),
      "proxyAgreement",
      r.proxy?.final?.actionAgreement ?? null,
      finalIteration(r.iteration, r.metrics),
    ),
    "proxyConfidence",
    r.proxy?.final?.confidence ?? null,
    finalIteration(r.iteration, r.metrics),
  );
  const judgedRows = withFinal(
    proxyRows,
    "proxyJudge",
    r.proxy?.final?.judgeSuccess ?? null,
    finalIteration(r.iteration, r.metrics),
  );
  const hasJudge = judgedRows.some((row) => typeof row.proxyJudge === "number");

  return (
    <div className={styles.page}>
      <div className={styles.header}>
        <h1>{r.name}</h1>
        <StatusBadge status={r.status} />
        {imported ? (
          <span
            className="badge"
            data-testid="run-imported"
            title="no real environment: trained in the synthetic environment built from the domain's logs"
          >
            imported domain · proxies only
          </span>
        ) : null}
        {external ? (
          <span
            className="badge"
            data-testid="run-external"
            title="played by a trainer through the environment server"
          >
            external trainer
          </span>
        ) : null}
        <span style={{ flex: 1 }} />
        <Link className="button" href={`/curriculum?run=${r.id}`}>
          Curriculum heatmap
        </Link>
        <Link className="button" href={`/trajectories?run=${r.id}`}>
          Episodes
        </Link>
        {/* Gaming is measured against the real environment's answers, which an imported domain has none of. */}
        {imported ? null : (
          <Link className="button" href={`/runs/${r.id}/gamed`}>
            Where the model is gamed
          </Link>
        )}
        <Allowed permission="run:cancel">
          {external && !isActiveStatus(r.status) ? null : <RunActions id={r.id} status={r.status} />}
        </Allowed>
        <Allowed permission="run:delete">{isActiveStatus(r.status) ? null : <DeleteRun id={r.id} />}</Allowed>
      </div>
      <p className="sub" style={{ margin: 0 }}>
        {methodLabelOf(r.method)} · {r.algorithm.toUpperCase()} · {r.domain} · created{" "}
        {r.createdAt.toLocaleString()}
        {r.finishedAt ? ` · finished ${r.finishedAt.toLocaleString()}` : ""}
        {took !== null ? ` · took ${seconds(took)}` : ""} · <span className="mono">{r.id}</span>
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
          <dd data-testid="run-iteration">{iterationsText(r.iteration, r.plannedIterations)}</dd>
          <div
            className="progress"
            style={{ marginTop: 6 }}
            role="progressbar"
            aria-label="Run progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={progressPercent(r.progress)}
          >
            <div data-testid="run-progress-bar" style={{ width: `${progressPercent(r.progress)}%` }} />
          </div>
          {budget !== null ? (
            <small className="hint" data-testid="run-budget">
              {budget}
            </small>
          ) : null}
        </div>
        {imported ? (
          proxyStats(r.proxy?.final ?? null).map((stat) => (
            <div key={stat.testId} className={styles.stat}>
              <dt title={stat.title}>{stat.label}</dt>
              <dd data-testid={stat.testId}>
                {pct(stat.value)}
                {stat.testId === "run-final-proxy" && untrainedProxy !== null ? (
                  <small> from {pct(untrainedProxy)} untrained</small>
                ) : null}
              </dd>
            </div>
          ))
        ) : (
          <div className={styles.stat}>
            <dt>
              Real-env success (final
              {heldOut === "validation" ? ", validation tasks" : ""})
            </dt>
            <dd data-testid="run-final-success">
              {pct(r.finalRealSuccess)}
              {r.untrainedRealSuccess !== null ? (
                <small> from {pct(r.untrainedRealSuccess)} untrained</small>
              ) : null}
            </dd>
          </div>
        )}
        {measuresGap ? (
          <div className={styles.stat}>
            <dt title="success on the same test tasks in the synthetic environment minus in the real one">
              Sim-to-real gap (final)
            </dt>
            <dd data-testid="run-final-gap">
              {gapPoints(r.finalSimSuccess, r.finalRealSuccess)}
              <small> {pct(r.finalSimSuccess)} in the synthetic environment</small>
            </dd>
          </div>
        ) : null}
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
        {imported ? (
          <>
            <CurveChart
              title="Success rate (proxy)"
              subtitle="rollouts · held-out imported tasks, synthetic env: no real environment"
              testId="success-chart"
              data={proxyRows}
              xMax={r.plannedIterations}
              percent
              reference={reference}
              series={[
                { key: "syntheticSuccess", label: "synthetic rollouts", color: "#7a5af8", dash: "5 4" },
                {
                  key: "simSuccess",
                  label: "held-out imported tasks, synthetic env (proxy)",
                  color: "#c11574",
                },
              ]}
            />
            <CurveChart
              title="Other proxies"
              subtitle={`agreement with held-out successful logs · model confidence${hasJudge ? " · LLM judge" : ""}`}
              testId="proxy-chart"
              data={judgedRows}
              xMax={r.plannedIterations}
              percent
              series={[
                { key: "proxyAgreement", label: "action agreement (proxy)", color: "#4f46e5" },
                { key: "proxyConfidence", label: "model confidence (proxy)", color: "#0e9384", dash: "5 4" },
                ...(hasJudge
                  ? [{ key: "proxyJudge", label: "LLM judge success (proxy)", color: "#b54708", dash: "2 3" }]
                  : []),
              ]}
            />
          </>
        ) : null}
        {imported ? null : (
          <CurveChart
            title="Success rate"
            subtitle={
              external
                ? "the trainer's episodes per policy version"
                : `rollouts · ${heldOut} tasks in the real and the synthetic env`
            }
            testId="success-chart"
            data={successRows}
            xMax={r.plannedIterations}
            percent
            reference={reference}
            series={[
              { key: "syntheticSuccess", label: "synthetic rollouts", color: "#7a5af8", dash: "5 4" },
              ...(measuresGap
                ? [
                    {
                      key: "simSuccess",
                      label: "test tasks, synthetic env",
                      color: "#c11574",
                      dash: "2 3",
                      finalAt,
                    },
                  ]
                : []),
              {
                key: "realSuccess",
                // An external run's real curve is its trainer's own episodes in the real environment.
                label: external ? "trainer's episodes, real env" : "test tasks, real env",
                color: "#4f46e5",
                finalAt,
              },
            ]}
          />
        )}
        {measuresGap ? (
          <CurveChart
            title="Sim-to-real gap"
            subtitle="test success, synthetic minus real env (points)"
            testId="gap-chart"
            data={gapRows}
            xMax={r.plannedIterations}
            percent
            signed
            series={[{ key: "simGap", label: "sim-to-real gap", color: "#c11574", finalAt }]}
          />
        ) : null}
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
            { key: "syntheticTransitions", label: "synthetic", color: "#98a2b3", dash: "5 4" },
          ]}
        />
      </div>

      {external ? <LiveSessions runId={r.id} /> : null}

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
