import { columnLabel, extraColumns, flattenExtra, formatExtra } from "../extra";
import { count, gapPoints, pct } from "../format";
import styles from "../runs.module.css";
import type { MetricRow } from "../runView";

/** One row per finished iteration, with whatever the update recorded (losses, entropy, KL, clip fraction…). */
export function MetricsTable({ metrics }: { metrics: readonly MetricRow[] }) {
  const extras = metrics.map((m) => flattenExtra(m.extra));
  const columns = extraColumns(extras);
  return (
    <div className={styles.tableWrap}>
      <table className="grid" aria-label="Per-iteration metrics">
        <thead>
          <tr>
            <th className={styles.num}>Iteration</th>
            <th className={styles.num}>Synthetic success</th>
            <th className={styles.num}>Real-env success</th>
            <th className={styles.num} title="the same test tasks in the synthetic environment">
              Synthetic-env success
            </th>
            <th className={styles.num}>Sim-to-real gap</th>
            <th className={styles.num}>Mean reward</th>
            <th className={styles.num}>Real transitions</th>
            <th className={styles.num}>Synthetic transitions</th>
            {columns.map((c) => (
              <th key={c} className={c === "phase" ? undefined : styles.num} title={c}>
                {columnLabel(c)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {metrics.length === 0 ? (
            <tr>
              <td colSpan={8 + columns.length} className={styles.empty}>
                No iteration has finished yet.
              </td>
            </tr>
          ) : null}
          {metrics.map((m, i) => (
            <tr key={m.iteration} data-testid="metric-row">
              <td className={styles.num}>{m.iteration}</td>
              <td className={styles.num}>{pct(m.syntheticSuccess)}</td>
              <td className={styles.num}>{pct(m.realSuccess)}</td>
              <td className={styles.num}>{pct(m.simSuccess)}</td>
              <td className={styles.num}>{gapPoints(m.simSuccess, m.realSuccess)}</td>
              <td className={styles.num}>{m.meanReward === null ? "—" : m.meanReward.toFixed(3)}</td>
              <td className={styles.num}>{count(m.realTransitions)}</td>
              <td className={styles.num}>{count(m.syntheticTransitions)}</td>
              {columns.map((c) => (
                <td key={c} className={c === "phase" ? undefined : `${styles.num} mono`}>
                  {formatExtra(extras[i]?.[c])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
