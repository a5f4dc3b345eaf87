import styles from "../curriculum.module.css";
import { CSS_GRADIENT, scaleMax } from "../heatmapLayout";

/** The variance scale from 0 to the heatmap's top colour, and the colour of a task not in an iteration's batch. */
export function HeatmapLegend({ maxVariance }: { maxVariance: number }) {
  return (
    <div className={styles.legend}>
      <span>variance 0</span>
      <span className={styles.legendBar} style={{ background: CSS_GRADIENT }} />
      <span>{scaleMax(maxVariance).toFixed(2)}</span>
      <span className={styles.legendMissing} />
      <span>not in the batch</span>
    </div>
  );
}
