"use client";

import { useDeferredValue, useMemo } from "react";
import { DiffText } from "@/features/shared/components/DiffText";
import styles from "../annotations.module.css";
import { diffTrace } from "../lib/traceDiff";
import type { AnnotationDetail } from "../types";

interface Props {
  item: AnnotationDetail;
  /** The reasoning being written while the editor is open, else null. */
  editing: string | null;
}

/**
 * The teacher's reasoning beside the correction, word-level differences marked on both sides. While a correction
 * is being written, the marks follow it as it is typed (the editor is below).
 */
export function TraceReview({ item, editing }: Props) {
  const corrected = useDeferredValue(editing ?? item.correction);
  const diff = useMemo(
    () => (corrected === null ? null : diffTrace(item.teacherText, corrected)),
    [item.teacherText, corrected],
  );
  return (
    <section className="panel" aria-label="Reasoning trace">
      <div className={styles.head} style={{ marginBottom: 10 }}>
        <h2 style={{ margin: 0 }}>Reasoning trace</h2>
        <span className="hint" data-testid="diff-summary">
          {diff && !diff.identical
            ? `${diff.removedWords} word${diff.removedWords === 1 ? "" : "s"} removed · ${diff.addedWords} added`
            : editing !== null
              ? "no changes yet"
              : null}
        </span>
      </div>
      <div className={styles.diffGrid}>
        <div className={styles.side}>
          <div className={styles.label}>
            <span>Original</span>
            <span className="mono" style={{ textTransform: "none", letterSpacing: 0 }} data-testid="teacher">
              {item.teacher}
            </span>
          </div>
          <pre className="text" data-testid="trace-original">
            {diff ? <DiffText segments={diff.original} changedClass={styles.removed} /> : item.teacherText}
          </pre>
        </div>
        <div className={styles.side}>
          <div className={styles.label}>
            <span>{editing !== null ? "Your correction" : "Correction"}</span>
            {item.correction !== null && editing === null && item.status !== "edited" ? (
              <span style={{ textTransform: "none", letterSpacing: 0, fontWeight: 400 }}>
                not applied ({item.status})
              </span>
            ) : null}
          </div>
          {diff && !diff.identical ? (
            <pre className="text" data-testid="trace-corrected">
              <DiffText segments={diff.corrected} changedClass={styles.added} />
            </pre>
          ) : (
            <div className={styles.empty}>
              <span>
                {editing !== null
                  ? "Write the corrected reasoning below."
                  : "No correction of the reasoning. Press e to correct the prediction, a if it is right."}
              </span>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
