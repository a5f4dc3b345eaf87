import Link from "next/link";
import { methodLabelOf } from "@/core/train/methods";
import { budgetText, count, gapPoints, iterationsText, pct, progressPercent } from "../format";
import styles from "../runs.module.css";
import type { ComparedRunData } from "../types";
import { SeriesSwatch } from "./SeriesLegend";
import { StatusBadge } from "./StatusBadge";
import type { Series } from "./series";

/** The compared runs side by side: each one's look on the charts, status, method, progress and final figures. */
export function CompareTable({
  runs,
  series,
}: {
  runs: readonly ComparedRunData[];
  series: readonly Series[];
}) {
  return (
    <div className={styles.tableWrap}>
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
          {runs.map((r, i) => (
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
    </div>
  );
}
