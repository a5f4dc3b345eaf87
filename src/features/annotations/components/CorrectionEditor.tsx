"use client";

import { type KeyboardEvent, useDeferredValue, useMemo } from "react";
import styles from "../annotations.module.css";
import type { CorrectionDraft, PredictionView } from "../lib/prediction";
import { diffTrace } from "../lib/traceDiff";
import type { DraftStatus } from "../lib/useCorrectionDraft";
import { DraftState } from "./DraftState";

interface Props {
  model: PredictionView;
  draft: CorrectionDraft;
  status: DraftStatus;
  restoredAt: Date | null;
  saving: boolean;
  /** The lock is ours: saving is possible. */
  canSave: boolean;
  onDraft: (draft: CorrectionDraft) => void;
  onSave: () => void;
  onCancel: () => void;
}

const rowsFor = (text: string, min: number) => Math.min(16, Math.max(min, Math.ceil(text.length / 56)));

/**
 * The whole prediction as an annotator corrects it: the reasoning (its changes from the teacher's marked as they
 * are typed), the next state, the reward and the end of the episode. Ctrl/⌘+Enter saves from any field, Esc
 * cancels; the draft autosaves in between.
 */
export function CorrectionEditor(p: Props) {
  const reasoning = useDeferredValue(p.draft.reasoning);
  const diff = useMemo(() => diffTrace(p.model.reasoning, reasoning), [p.model.reasoning, reasoning]);
  const set = (patch: Partial<CorrectionDraft>) => p.onDraft({ ...p.draft, ...patch });
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      p.onSave();
    } else if (e.key === "Escape") {
      e.preventDefault();
      p.onCancel();
    }
  };
  return (
    <section className="panel" aria-label="Edit of the prediction" onKeyDown={onKeyDown}>
      <div className={styles.head} style={{ marginBottom: 10 }}>
        <h2 style={{ margin: 0 }}>Your correction</h2>
        <DraftState status={p.status} restoredAt={p.restoredAt} />
      </div>
      <label className={styles.label} htmlFor="correction-reasoning">
        <span>Reasoning</span>
        <span className="hint" style={{ textTransform: "none", letterSpacing: 0 }}>
          {diff.identical ? "as the teacher wrote it" : "changes marked above"}
        </span>
      </label>
      <textarea
        id="correction-reasoning"
        className={styles.editor}
        aria-label="Correction"
        rows={rowsFor(p.draft.reasoning, 6)}
        // biome-ignore lint/a11y/noAutofocus: the editor opens on a key press to be typed into
        autoFocus
        value={p.draft.reasoning}
        onChange={(e) => set({ reasoning: e.target.value })}
        onFocus={(e) =>
          e.currentTarget.setSelectionRange(e.currentTarget.value.length, e.currentTarget.value.length)
        }
      />
      <label className={styles.label} htmlFor="correction-next-state" style={{ marginTop: 12 }}>
        <span>Next state</span>
        {p.draft.nextState === p.model.nextState ? null : <span className="badge">corrected</span>}
      </label>
      <textarea
        id="correction-next-state"
        className={styles.editor}
        aria-label="Corrected next state"
        rows={rowsFor(p.draft.nextState, 4)}
        value={p.draft.nextState}
        onChange={(e) => set({ nextState: e.target.value })}
      />
      <div className={styles.outcomeRow}>
        <label className="field" style={{ whiteSpace: "nowrap" }}>
          Reward <span className="hint">(model: {p.model.reward})</span>
          <input
            aria-label="Corrected reward"
            inputMode="decimal"
            value={p.draft.reward}
            onChange={(e) => set({ reward: e.target.value })}
            style={{ width: 90 }}
          />
        </label>
        <label className="row" style={{ gap: 6 }}>
          <input
            type="checkbox"
            aria-label="Episode ends here"
            checked={p.draft.done}
            onChange={(e) => set({ done: e.target.checked })}
          />
          Episode ends here <span className="hint">(model: {p.model.done ? "yes" : "no"})</span>
        </label>
      </div>
      <div className={styles.editorBar}>
        <span className="hint">
          <kbd>Ctrl</kbd>/<kbd>⌘</kbd>+<kbd>Enter</kbd> save · <kbd>Esc</kbd> cancel
        </span>
        <span className="row" style={{ gap: 6, flexWrap: "nowrap" }}>
          <button type="button" onClick={p.onCancel}>
            Cancel
          </button>
          <button type="button" className="primary" disabled={p.saving || !p.canSave} onClick={p.onSave}>
            {p.saving ? "Saving…" : "Save correction"}
          </button>
        </span>
      </div>
    </section>
  );
}
