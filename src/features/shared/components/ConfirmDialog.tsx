"use client";

import { type ReactNode, useEffect, useId, useRef } from "react";
import styles from "./ConfirmDialog.module.css";

export interface ConfirmDialogProps {
  title: string;
  /** What will happen, in the user's words: what is deleted, with counts. */
  children: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  /** The action is under way: neither button answers, and Escape does not close. */
  busy: boolean;
  /** Confirming is not possible yet (counts still loading) or at all (the server refused). */
  confirmDisabled?: boolean;
  error?: string | null;
  onCancel: () => void;
  onConfirm: () => void;
}

/**
 * A modal confirmation for what cannot be undone, on the browser's own <dialog>: it traps focus, Escape cancels,
 * and focus starts on Cancel, so a stray Enter never confirms. Mounted open; the caller unmounts it to close.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { title, children, confirmLabel, busyLabel, busy, confirmDisabled, error, onCancel, onConfirm } =
    props;
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  // The latest onCancel, for the close event (which may come after a re-render with a new callback).
  const onCancelRef = useRef(onCancel);
  onCancelRef.current = onCancel;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) element.showModal();
    cancel.current?.focus();
    return () => {
      if (element.open) element.close();
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      className={styles.dialog}
      aria-labelledby={titleId}
      // Escape: the browser closes the dialog (unless busy); closing by any means is a cancel.
      onCancel={(e) => {
        if (busy) e.preventDefault();
      }}
      onClose={() => onCancelRef.current()}
    >
      <h2 id={titleId}>{title}</h2>
      <div className={styles.body}>{children}</div>
      {error ? (
        <div className="error" role="alert" style={{ marginTop: 12 }}>
          {error}
        </div>
      ) : null}
      <div className={styles.actions}>
        <button ref={cancel} type="button" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className={styles.danger}
          disabled={busy || confirmDisabled}
          onClick={onConfirm}
        >
          {busy ? busyLabel : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
