import { evaluatedOn } from "../configForm";
import { budgetText, count, gapPoints, iterationsText, pct, progressPercent } from "../format";
import styles from "../runs.module.css";
import type { RunView } from "../runView";
import type { RunData } from "../types";
import { ProxyStats } from "./ProxyStats";

/** The run's figures in a row: progress, final success (or its proxies), the sim-to-real gap, transitions. */
export function RunStats({ run: r, view }: { run: RunData; view: RunView }) {
  const budget = budgetText(r.realTransitions, r.realBudget);
  const heldOut = evaluatedOn(r.config);
  return (
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
      {view.imported ? (
        <ProxyStats final={r.proxy?.final ?? null} untrained={view.untrainedProxy} />
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
      {view.measuresGap ? (
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
  );
}
