import type { StoredTrustReport } from "@/core/trust/stored";
import styles from "../trust.module.css";

/**
 * The verdict in words: a warning that synthetic success cannot be trusted, with every reason, or that the
 * proxies passed the checks the logs allow, with what could not be checked.
 */
export function TrustVerdictNote({
  verdict,
  where,
}: {
  verdict: StoredTrustReport["verdict"];
  where: string;
}) {
  if (!verdict.trustworthy)
    return (
      <div className={styles.warning} role="alert" data-testid="trust-warning">
        <strong>Synthetic success here is untrustworthy</strong> (checked at {where}):
        <ul>
          {verdict.reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      </div>
    );
  return (
    <div className={styles.passed} data-testid="trust-passed">
      The proxies passed every check against the held-out logs (at {where}).
      {verdict.unchecked.length > 0 ? (
        <ul className="hint">
          {verdict.unchecked.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
