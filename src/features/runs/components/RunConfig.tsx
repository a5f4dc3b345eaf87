import { usedSettings } from "../configForm";
import styles from "../runs.module.css";

/** The settings the run was launched with, only those its method reads, each titled with its config path. */
export function RunConfig({ config }: { config: unknown }) {
  return (
    <section className="panel" aria-label="Config">
      <h2>Config</h2>
      <dl className={styles.config} data-testid="run-config">
        {usedSettings(config).map(({ path, label, value }) => (
          <div key={path} title={path}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
