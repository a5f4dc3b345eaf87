"use client";

import { useState } from "react";
import { useMe } from "@/features/auth/lib/useMe";
import { FLAG_CATEGORY_LABELS, FlagCategory } from "@/shared/enums";
import styles from "../flags.module.css";
import { FlagCategoryOptions } from "./FlagCategoryOptions";
import { type FlagState, useFlagMutations } from "./useFlagMutations";

interface Props {
  trajectoryId: string;
  step: FlagState;
  editing: boolean;
  onEditingChange: (editing: boolean) => void;
}

const categoryOf = (value: string | null): FlagCategory => {
  const parsed = FlagCategory.safeParse(value);
  return parsed.success ? parsed.data : "hallucinated-element";
};

/**
 * A step's flag: the form to flag it as a hallucinated transition with a category and a note, signed by whoever
 * is signed in, or, once flagged, the flag with the way to change or withdraw it (for roles that may flag).
 */
export function FlagPanel({ trajectoryId, step, editing, onEditingChange }: Props) {
  const { flag, unflag } = useFlagMutations(trajectoryId);
  const me = useMe();
  const canFlag = Boolean(me?.permissions.includes("step:flag"));
  const [note, setNote] = useState(step.flagNote ?? "");
  const [category, setCategory] = useState<FlagCategory>(categoryOf(step.flagCategory));
  const error = flag.error ?? unflag.error;

  if (editing) {
    const submit = () => {
      flag.mutate({ id: step.id, note: note.trim(), category }, { onSuccess: () => onEditingChange(false) });
    };
    return (
      <form
        className={styles.form}
        aria-label="Flag step"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <div className={styles.formRow}>
          <label className="field">
            What is wrong?
            <select
              aria-label="Flag category"
              value={category}
              onChange={(e) => setCategory(categoryOf(e.target.value))}
            >
              <FlagCategoryOptions />
            </select>
          </label>
          {me ? (
            <span className="hint" data-testid="flag-as">
              flagging as <strong>{me.name}</strong>
            </span>
          ) : null}
        </div>
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
            {step.flagged ? "Save flag" : "Flag step"}
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
        <span className="badge bad" data-testid="flag-category">
          {FLAG_CATEGORY_LABELS[categoryOf(step.flagCategory)]}
        </span>{" "}
        <span className="hint">
          {step.flagAuthor ? (
            <>
              by <strong data-testid="flag-author">{step.flagAuthor}</strong>
              {step.flaggedAt ? " · " : ""}
            </>
          ) : null}
          {step.flaggedAt ? step.flaggedAt.toLocaleString() : null}
        </span>
        <div className={styles.note} data-testid="flag-note">
          {step.flagNote ?? <span className="hint">no note</span>}
        </div>
      </div>
      {canFlag ? (
        <div className={styles.actions}>
          <button
            type="button"
            onClick={() => {
              setNote(step.flagNote ?? "");
              setCategory(categoryOf(step.flagCategory));
              onEditingChange(true);
            }}
          >
            Edit flag
          </button>
          <button type="button" disabled={unflag.isPending} onClick={() => unflag.mutate({ id: step.id })}>
            Unflag
          </button>
        </div>
      ) : null}
    </div>
  );
}
