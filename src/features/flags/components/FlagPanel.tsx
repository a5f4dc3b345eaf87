"use client";

import { useState } from "react";
import styles from "../flags.module.css";
import { useFlagMutations } from "./useFlagMutations";

interface Props {
  trajectoryId: string;
  step: { id: string; flagged: boolean; flagNote: string | null; flaggedAt: Date | null };
  editing: boolean;
  onEditingChange: (editing: boolean) => void;
}

/**
 * A step's flag: the form to flag it as a hallucinated transition with a note, or, once flagged, the note with
 * the way to change or withdraw it.
 */
export function FlagPanel({ trajectoryId, step, editing, onEditingChange }: Props) {
  const { flag, unflag } = useFlagMutations(trajectoryId);
  const [note, setNote] = useState(step.flagNote ?? "");
  const error = flag.error ?? unflag.error;

  if (editing) {
    const submit = () =>
      flag.mutate({ id: step.id, note: note.trim() }, { onSuccess: () => onEditingChange(false) });
    return (
      <form
        className={styles.form}
        aria-label="Flag step"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label className="field">
          What is hallucinated in this transition?
          <textarea
            aria-label="Flag note"
            // The form opens on purpose (button or "f"): the note is what comes next.
            // biome-ignore lint/a11y/noAutofocus: opened by an explicit user action
            autoFocus
            value={note}
            maxLength={2000}
            placeholder="e.g. the predicted results list a product the real search never returns"
            onChange={(e) => setNote(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Escape") onEditingChange(false);
              if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) submit();
            }}
          />
        </label>
        <div className={styles.actions}>
          <button type="submit" className={styles.danger} disabled={flag.isPending}>
            {step.flagged ? "Save note" : "Flag step"}
          </button>
          <button type="button" onClick={() => onEditingChange(false)}>
            Cancel
          </button>
          <span className="hint">
            <kbd>Ctrl</kbd>+<kbd>Enter</kbd> to save · <kbd>Esc</kbd> to cancel
          </span>
        </div>
        {error ? <div className="error">{error.message}</div> : null}
      </form>
    );
  }

  if (!step.flagged) return error ? <div className="error">{error.message}</div> : null;
  return (
    <div className={styles.banner} data-testid="flag-banner">
      <div>
        <span className={styles.bannerTitle}>⚑ Flagged as hallucinated</span>
        {step.flaggedAt ? <span className="hint">{step.flaggedAt.toLocaleString()}</span> : null}
        <div className={styles.note} data-testid="flag-note">
          {step.flagNote ?? <span className="hint">no note</span>}
        </div>
      </div>
      <div className={styles.actions}>
        <button
          type="button"
          onClick={() => {
            setNote(step.flagNote ?? "");
            onEditingChange(true);
          }}
        >
          Edit note
        </button>
        <button type="button" disabled={unflag.isPending} onClick={() => unflag.mutate({ id: step.id })}>
          Unflag
        </button>
      </div>
    </div>
  );
}
