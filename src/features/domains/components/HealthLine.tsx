import styles from "../domains.module.css";
import type { Health } from "../types";

/** A remote environment's last health check: ok or failed, what it said, and when. */
export function HealthLine({ health }: { health: Health | null }) {
  if (!health) return <span className="hint">not checked yet</span>;
  return (
    <span className={styles.health} data-testid="domain-health">
      <span className={styles.healthHead}>
        <span className={`badge ${health.ok ? "good" : "bad"}`}>{health.ok ? "ok" : "failed"}</span>
        <time className="hint" dateTime={health.at.toISOString()}>
          {health.at.toLocaleString()}
        </time>
      </span>
      <span className={styles.healthMessage}>{health.message}</span>
    </span>
  );
}
