"use client";

import { useState } from "react";
import { useCan } from "@/features/auth/lib/useMe";
import styles from "../annotations.module.css";
import type { useBulkActions } from "../lib/useBulkActions";

interface Props {
  bulk: ReturnType<typeof useBulkActions>;
  annotators: { email: string; name: string }[];
}

/** What can be done to the selected items at once: accept, reject, and (for those who assign work) reassign. */
export function BulkBar({ bulk, annotators }: Props) {
  const canReview = useCan("annotation:review");
  const canAssign = useCan("annotation:assign");
  const [to, setTo] = useState("");
  const count = bulk.selected.length;
  return (
    <>
      {count > 0 ? (
        <div className={styles.bulkBar} role="toolbar" aria-label="Selected items" data-testid="bulk-bar">
          <strong data-testid="bulk-count">{count} selected</strong>
          {canReview ? (
            <>
              <button
                type="button"
                disabled={bulk.busy}
                onClick={bulk.accept}
                title="Accept every selected trace (Shift+A)"
              >
                Accept all
              </button>
              <button
                type="button"
                disabled={bulk.busy}
                onClick={bulk.reject}
                title="Reject every selected trace (Shift+R)"
              >
                Reject all
              </button>
            </>
          ) : null}
          {canAssign ? (
            <span className="row" style={{ gap: 4 }}>
              <select aria-label="Reassign to" value={to} onChange={(e) => setTo(e.target.value)}>
                <option value="">nobody</option>
                {annotators.map((a) => (
                  <option key={a.email} value={a.email}>
                    {a.name}
                  </option>
                ))}
              </select>
              <button type="button" disabled={bulk.busy} onClick={() => bulk.assignTo(to)}>
                Reassign
              </button>
            </span>
          ) : null}
          <button type="button" onClick={bulk.clear}>
            Clear
          </button>
        </div>
      ) : null}
      {bulk.message ? (
        <div
          className={bulk.message.tone === "error" ? "error" : styles.notice}
          role="status"
          data-testid="bulk-message"
        >
          {bulk.message.text}
        </div>
      ) : null}
    </>
  );
}
