import Link from "next/link";
import styles from "../curriculum.module.css";

/** A run without per-task statistics yet: they come as it finishes iterations. */
export function HeatmapEmpty({ runId }: { runId: string }) {
  return (
    <div className={styles.empty}>
      No per-task statistics yet: they appear as the run finishes iterations.{" "}
      <Link href={`/runs/${runId}`}>Watch the run</Link>
    </div>
  );
}
