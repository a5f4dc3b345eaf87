"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useCan } from "@/features/auth/lib/useMe";
import { useTRPC } from "@/trpc/react";
import styles from "../runs.module.css";
import type { RunData } from "../types";
import { TagChips } from "./TagChips";

/**
 * The run's notes and tags, as a W&B run's: what the researcher thought of it, and labels the runs list searches
 * and filters by. Those who may launch runs edit them; everyone reads them.
 */
export function RunNotes({ run }: { run: RunData }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const editable = useCan("run:launch");
  const [notes, setNotes] = useState(run.notes ?? "");
  const [tag, setTag] = useState("");
  const save = useMutation(
    trpc.runs.annotate.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.runs.get.queryKey({ id: run.id }) });
        void queryClient.invalidateQueries({ queryKey: trpc.runs.list.queryKey() });
      },
    }),
  );
  const setTags = (tags: string[]) => save.mutate({ id: run.id, tags });
  const addTag = () => {
    const t = tag.trim();
    if (!t) return;
    setTags([...run.tags.filter((x) => x !== t), t]);
    setTag("");
  };
  const dirty = notes !== (run.notes ?? "");
  return (
    <section className={`panel ${styles.notes}`} aria-label="Notes and tags">
      <h2>Notes and tags</h2>
      <TagChips
        tags={run.tags}
        onRemove={editable ? (t) => setTags(run.tags.filter((x) => x !== t)) : undefined}
      />
      {editable ? (
        <form
          className={styles.tagForm}
          onSubmit={(e) => {
            e.preventDefault();
            addTag();
          }}
        >
          <input
            aria-label="New tag"
            placeholder="add a tag"
            value={tag}
            maxLength={40}
            onChange={(e) => setTag(e.target.value)}
          />
          <button type="submit" disabled={!tag.trim() || save.isPending}>
            Add tag
          </button>
        </form>
      ) : null}
      {editable ? (
        <>
          <textarea
            aria-label="Run notes"
            rows={3}
            placeholder="What this run tried, what you saw, what to do next"
            value={notes}
            onChange={(e) => setNotes(e.target.value)}
          />
          <div className={styles.notesBar}>
            <button
              type="button"
              disabled={!dirty || save.isPending}
              onClick={() => save.mutate({ id: run.id, notes })}
            >
              Save notes
            </button>
            <span className="hint" data-testid="notes-state">
              {save.isPending ? "Saving…" : dirty ? "Unsaved changes" : save.isSuccess ? "Saved" : ""}
            </span>
          </div>
        </>
      ) : (
        <p data-testid="run-notes" className={styles.notesText}>
          {run.notes ?? <span className="hint">No notes.</span>}
        </p>
      )}
      {save.error ? <div className="error">{save.error.message}</div> : null}
    </section>
  );
}
