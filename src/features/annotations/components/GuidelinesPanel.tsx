"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useCan } from "@/features/auth/lib/useMe";
import { useTRPC } from "@/trpc/react";
import styles from "../annotations.module.css";
import { clock } from "../lib/time";

/** What annotators are asked to do, beside the queue: everyone reads it, admins edit it. */
export function GuidelinesPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canEdit = useCan("annotation:guide");
  const guidelines = useQuery(trpc.annotations.guidelines.queryOptions());
  const [text, setText] = useState<string | null>(null);
  const save = useMutation(
    trpc.annotations.setGuidelines.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.annotations.guidelines.queryKey(), saved);
        setText(null);
      },
    }),
  );
  const g = guidelines.data;
  return (
    <section className={`panel ${styles.sidePanel}`} aria-label="Guidelines" data-testid="guidelines">
      <div className={styles.head}>
        <h2>Guidelines</h2>
        {canEdit && text === null ? (
          <button type="button" onClick={() => setText(g?.text ?? "")}>
            Edit
          </button>
        ) : null}
      </div>
      {text !== null ? (
        <>
          <textarea
            className={styles.editor}
            aria-label="Guidelines text"
            rows={10}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          {save.error ? <div className="error">{save.error.message}</div> : null}
          <div className="row" style={{ gap: 6, marginTop: 6 }}>
            <button
              type="button"
              className="primary"
              disabled={save.isPending}
              onClick={() => save.mutate({ text })}
            >
              {save.isPending ? "Saving…" : "Save guidelines"}
            </button>
            <button type="button" onClick={() => setText(null)}>
              Cancel
            </button>
          </div>
        </>
      ) : g?.text ? (
        <>
          <p className={styles.guidelines} data-testid="guidelines-text">
            {g.text}
          </p>
          {g.updatedAt ? (
            <p className="hint" style={{ margin: "6px 0 0" }}>
              {g.updatedBy} · {clock(g.updatedAt)}
            </p>
          ) : null}
        </>
      ) : (
        <p className="hint" style={{ margin: 0 }} data-testid="guidelines-text">
          {canEdit
            ? "No guidelines yet: write what annotators should accept, correct and reject."
            : "No guidelines yet."}
        </p>
      )}
    </section>
  );
}
