import { useMemo } from "react";
import { DiffText } from "@/features/shared/components/DiffText";
import styles from "../annotations.module.css";
import { ago, clock } from "../lib/time";
import { diffTrace } from "../lib/traceDiff";
import type { AnnotationEventRow } from "../types";

const VERB: Record<string, string> = {
  accept: "accepted the trace",
  edit: "corrected the trace",
  reject: "rejected the trace",
  reopen: "reopened it for review",
  undo: "undid their last review",
};

type FieldChange = { before: unknown; after: unknown };

/** The fields of the prediction an event changed other than the reasoning (shown as its own word diff). */
function outcomeChanges(diff: unknown): string[] {
  const fields = (diff as { fields?: Record<string, FieldChange> } | null)?.fields;
  if (!fields) return [];
  const said: string[] = [];
  if (fields.nextState) said.push("next state corrected");
  if (fields.reward) said.push(`reward ${String(fields.reward.before)} → ${String(fields.reward.after)}`);
  if (fields.done)
    said.push(`end ${fields.done.before ? "yes" : "no"} → ${fields.done.after ? "yes" : "no"}`);
  return said;
}

function EventChange({ before, after }: { before: string; after: string }) {
  const diff = useMemo(() => diffTrace(before, after), [before, after]);
  if (diff.identical) return null;
  return (
    <div className={styles.historyDiff}>
      <DiffText segments={diff.original} changedClass={styles.removed} />
      {"  →  "}
      <DiffText segments={diff.corrected} changedClass={styles.added} />
    </div>
  );
}

/** Who changed what and when, newest first. */
export function ReviewHistory({ events }: { events: AnnotationEventRow[] }) {
  const now = new Date();
  return (
    <section className="panel" aria-label="History">
      <h2>History</h2>
      {events.length === 0 ? (
        <p className="hint" style={{ margin: 0 }}>
          Not reviewed yet. Written by the teacher and waiting in the queue.
        </p>
      ) : (
        <ol className={styles.history} data-testid="history">
          {events.map((e) => (
            <li key={e.id} data-testid="history-event">
              <span className={styles.avatar} aria-hidden="true">
                {e.author[0]?.toUpperCase()}
              </span>
              <span>
                <strong>{e.author}</strong> {VERB[e.action] ?? e.action}{" "}
                <span className={styles.when} title={e.createdAt.toISOString()}>
                  · {clock(e.createdAt, now)} ({ago(e.createdAt, now)})
                </span>
              </span>
              {outcomeChanges(e.diff).length ? (
                <span className="hint" data-testid="history-fields">
                  {" "}
                  · {outcomeChanges(e.diff).join(" · ")}
                </span>
              ) : null}
              {(e.action === "edit" || e.action === "undo") && e.before !== null && e.after !== null ? (
                <EventChange before={e.before} after={e.after} />
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
