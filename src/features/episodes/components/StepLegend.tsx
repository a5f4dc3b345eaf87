import styles from "../episodes.module.css";

/** What the step dots' marks mean; shown when some step differs from the real answer or is flagged. */
export function StepLegend() {
  return (
    <div className={styles.legend}>
      <span>
        <i className={styles.legendDiffers} />
        prediction differs from the real answer
      </span>
      <span>
        <i className={styles.legendFlagged} />
        flagged
      </span>
      <span>
        <i className={styles.legendReward} />
        reward
      </span>
    </div>
  );
}
