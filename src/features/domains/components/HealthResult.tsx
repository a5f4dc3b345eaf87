import styles from "../domains.module.css";
import type { Registered } from "../types";

/** What registering found: the environment's answer, and the sample task it reset. */
export function HealthResult({ registered }: { registered: Registered }) {
  const { domain, health } = registered;
  return (
    <div className={styles.result} role="status" data-testid="register-result">
      <p>
        <strong>Registered {domain.name}</strong>: the environment answered its check.
      </p>
      {health.sample ? (
        <>
          <p>
            Sample instruction (train task 0):{" "}
            <q data-testid="sample-instruction">{health.sample.instruction}</q>
          </p>
          <p data-testid="sample-actions">
            {health.sample.actions === 1 ? "1 action" : `${health.sample.actions} actions`} listed
          </p>
        </>
      ) : null}
      <p className="hint">{health.message}</p>
    </div>
  );
}
