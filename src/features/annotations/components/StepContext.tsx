import Link from "next/link";
import { formatReward } from "@/features/shared/lib/formatReward";
import { stepLink } from "@/features/shared/lib/stepParam";
import styles from "../annotations.module.css";
import type { AnnotationDetail } from "../types";

/** The transition the trace explains: the task, the state, the action, and what the real environment answered. */
export function StepContext({ item }: { item: AnnotationDetail }) {
  const { step } = item;
  const t = step.trajectory;
  return (
    <section className="panel" aria-label="Step context">
      <div className={styles.label}>
        <span>Task</span>
        <span style={{ textTransform: "none", letterSpacing: 0, fontWeight: 400 }}>
          {t.domain} · {t.source} ·{" "}
          <Link href={stepLink(t.id, step.index)}>
            step {step.index + 1} of {t.length}
          </Link>
        </span>
      </div>
      <p className={styles.task} data-testid="task-instruction">
        {t.task.instruction}
      </p>
      <div className={styles.actionBox}>
        <div className={styles.label}>Action</div>
        <pre className="text" data-testid="step-action">
          {step.action}
        </pre>
      </div>
      <div className={styles.context} style={{ marginTop: 12 }}>
        <div>
          <div className={styles.label}>State</div>
          <pre className={`text ${styles.scroll}`} data-testid="step-state">
            {step.state}
          </pre>
        </div>
        <div>
          <div className={styles.label}>
            <span>Next state</span>
            <span className="row" style={{ gap: 6, textTransform: "none", letterSpacing: 0 }}>
              <span className={`badge ${step.reward > 0 ? "good" : "muted"}`} data-testid="step-reward">
                reward {formatReward(step.reward, { decimals: 3, trim: true })}
              </span>
              {step.done ? <span className="badge">done</span> : null}
              {step.valid ? null : <span className="badge bad">invalid action</span>}
            </span>
          </div>
          <pre className={`text ${styles.scroll}`} data-testid="step-next-state">
            {step.nextState}
          </pre>
        </div>
      </div>
    </section>
  );
}
