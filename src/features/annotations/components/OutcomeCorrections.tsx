"use client";

import { useMemo } from "react";
import { DiffText } from "@/features/shared/components/DiffText";
import { formatReward } from "@/features/shared/lib/formatReward";
import styles from "../annotations.module.css";
import { currentOf, hasOutcomeCorrection, modelOf } from "../lib/prediction";
import { diffTrace } from "../lib/traceDiff";
import type { AnnotationDetail } from "../types";

const reward = (value: number) => formatReward(value, { decimals: 3, trim: true });

/**
 * What the annotator corrected beyond the reasoning: the next state (its differences from the recorded one
 * marked), the reward and the end of the episode, each beside what the model said. Nothing when none was.
 */
export function OutcomeCorrections({ item }: { item: AnnotationDetail }) {
  const model = modelOf(item);
  const now = currentOf(item);
  const diff = useMemo(() => diffTrace(model.nextState, now.nextState), [model.nextState, now.nextState]);
  if (!hasOutcomeCorrection(item)) return null;
  return (
    <section className="panel" aria-label="Corrected outcome" data-testid="outcome-corrections">
      <div className={styles.head} style={{ marginBottom: 10 }}>
        <h2 style={{ margin: 0 }}>Corrected outcome</h2>
        {item.status === "edited" ? null : <span className="hint">not applied ({item.status})</span>}
      </div>
      <div className={styles.outcomeRow}>
        {item.correctedReward !== null ? (
          <span data-testid="corrected-reward">
            reward <s className="hint">{reward(model.reward)}</s> → <strong>{reward(now.reward)}</strong>
          </span>
        ) : null}
        {item.correctedDone !== null ? (
          <span data-testid="corrected-done">
            episode {now.done ? "ends here" : "goes on"}{" "}
            <span className="hint">(model: {model.done ? "ends" : "goes on"})</span>
          </span>
        ) : null}
      </div>
      {item.correctedNextState !== null ? (
        <div className={styles.diffGrid} style={{ marginTop: 10 }}>
          <div className={styles.side}>
            <div className={styles.label}>Recorded next state</div>
            <pre className={`text ${styles.scroll}`}>
              <DiffText segments={diff.original} changedClass={styles.removed} />
            </pre>
          </div>
          <div className={styles.side}>
            <div className={styles.label}>Corrected next state</div>
            <pre className={`text ${styles.scroll}`} data-testid="corrected-next-state">
              <DiffText segments={diff.corrected} changedClass={styles.added} />
            </pre>
          </div>
        </div>
      ) : null}
    </section>
  );
}
