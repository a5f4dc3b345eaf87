import { pct } from "../format";
import styles from "../runs.module.css";

interface ProxyFigures {
  syntheticSuccess: number;
  confidence: number | null;
  actionAgreement: number | null;
  judgeSuccess: number | null;
  judgeFailures: number | null;
}

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

/** The figures an imported-domain run has in place of real success: proxies, the synthetic one from untrained. */
export function ProxyStats({ final, untrained }: { final: ProxyFigures | null; untrained: number | null }) {
  return (
    <>
      {proxyStats(final).map((stat) => (
        <div key={stat.testId} className={styles.stat}>
          <dt title={stat.title}>{stat.label}</dt>
          <dd data-testid={stat.testId}>
            {pct(stat.value)}
            {stat.testId === "run-final-proxy" && untrained !== null ? (
              <small> from {pct(untrained)} untrained</small>
            ) : null}
          </dd>
        </div>
      ))}
    </>
  );
}
