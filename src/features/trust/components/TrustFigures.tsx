import type { StoredTrustReport } from "@/core/trust/stored";
import { figureRows, share } from "../format";
import styles from "../trust.module.css";

/** The held-out figures of a trust report: fidelity and overall calibration, then calibration per logged policy. */
export function TrustFigures({ report }: { report: StoredTrustReport }) {
  const { fidelity: f, calibration: c } = report;
  return (
    <div className={styles.figures}>
      <p className="hint">
        Teacher-forced on {f.transitions} held-out logged steps of {f.tasks} tasks; {c.episodes} held-out
        episodes replayed through the model
      </p>
      <table className="grid" data-testid="trust-fidelity">
        <thead>
          <tr>
            <th>figure</th>
            <th>value</th>
            <th>threshold</th>
          </tr>
        </thead>
        <tbody>
          {figureRows(report).map((row) => (
            <tr key={row.label} className={row.fails ? styles.failing : undefined}>
              <td>{row.label}</td>
              <td className={styles.num}>{row.value}</td>
              <td className="hint">{row.threshold}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">Outcome calibration per logged policy (the logs&apos; own labels)</p>
      <table className="grid" data-testid="trust-calibration">
        <thead>
          <tr>
            <th>logged policy</th>
            <th>episodes</th>
            <th>logged success</th>
            <th>model&apos;s success</th>
            <th>precision</th>
            <th>recall</th>
            <th>failures called success</th>
            <th>reward: model / logs</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(report.byPolicy).map(([policy, p]) => (
            <tr key={policy} data-testid="trust-policy">
              <td>{policy}</td>
              <td className={styles.num}>{p.episodes}</td>
              <td className={styles.num}>{share(p.base)}</td>
              <td className={styles.num}>{share(p.predicted)}</td>
              <td className={styles.num}>{share(p.precision)}</td>
              <td className={styles.num}>{share(p.recall)}</td>
              <td className={styles.num}>{share(p.falseSuccess)}</td>
              <td className={styles.num}>
                {p.reward.toFixed(2)} / {p.logReward.toFixed(2)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
