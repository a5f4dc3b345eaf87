"use client";

import { useDeferredValue, useMemo } from "react";
import { DiffText } from "@/features/shared/components/DiffText";
import styles from "../annotations.module.css";
import { diffTrace } from "../lib/traceDiff";
import type { AnnotationDetail } from "../types";

interface Props {
  item: AnnotationDetail;
  /** The draft while the editor is open, else null. */
  draft: string | null;
  saving: boolean;
  onDraft: (text: string) => void;
  onSave: () => void;
  onCancel: () => void;
}

/**
 * The teacher's trace beside the correction, word-level differences marked on both sides. While editing, the
 * right side is the editor and the marks follow the draft as it is typed.
 */
export function TraceReview({ item, draft, saving, onDraft, onSave, onCancel }: Props) {
  const corrected = useDeferredValue(draft ?? item.correction);
  const diff = useMemo(
    () => (corrected === null ? null : diffTrace(item.teacherText, corrected)),
    [item.teacherText, corrected],
  );
  const editing = draft !== null;
  return (
    <section className="panel" aria-label="Reasoning trace">
      <div className={styles.head} style={{ marginBottom: 10 }}>
        <h2 style={{ margin: 0 }}>Reasoning trace</h2>
        <span className="hint" data-testid="diff-summary">
          {diff && !diff.identical
            ? `${diff.removedWords} word${diff.removedWords === 1 ? "" : "s"} removed · ${diff.addedWords} added`
            : editing
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
            <span>{editing ? "Your correction" : "Correction"}</span>
            {item.correction !== null && !editing && item.status !== "edited" ? (
              <span style={{ textTransform: "none", letterSpacing: 0, fontWeight: 400 }}>
                not applied ({item.status})
              </span>
            ) : null}
          </div>
          {editing ? (
            <>
              <textarea
                className={styles.editor}
                aria-label="Correction"
                rows={Math.min(16, Math.max(6, Math.ceil(draft.length / 56)))}
                // biome-ignore lint/a11y/noAutofocus: the editor opens on a key press to be typed into
                autoFocus
                value={draft}
                onChange={(e) => onDraft(e.target.value)}
                onFocus={(e) => e.currentTarget.setSelectionRange(draft.length, draft.length)}
                onKeyDown={(e) => {
                  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
                    e.preventDefault();
                    onSave();
                  } else if (e.key === "Escape") {
                    e.preventDefault();
                    onCancel();
                  }
                }}
              />
              {diff && !diff.identical ? (
                <>
                  <div className={styles.label} style={{ marginTop: 10 }}>
                    Changes
                  </div>
                  <pre className="text" data-testid="trace-corrected">
                    <DiffText segments={diff.corrected} changedClass={styles.added} />
                  </pre>
                </>
              ) : null}
              <div className={styles.editorBar}>
                <span className="hint">
                  <kbd>Ctrl</kbd>/<kbd>⌘</kbd>+<kbd>Enter</kbd> save · <kbd>Esc</kbd> cancel
                </span>
                <span className="row" style={{ gap: 6, flexWrap: "nowrap" }}>
                  <button type="button" onClick={onCancel}>
                    Cancel
                  </button>
                  <button type="button" className="primary" disabled={saving} onClick={onSave}>
                    {saving ? "Saving…" : "Save correction"}
                  </button>
                </span>
              </div>
            </>
          ) : diff ? (
            <pre className="text" data-testid="trace-corrected">
              <DiffText segments={diff.corrected} changedClass={styles.added} />
            </pre>
          ) : (
            <div className={styles.empty}>
              <span>
                No correction. Press <kbd>e</kbd> to edit the trace, <kbd>a</kbd> if it is right.
              </span>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
