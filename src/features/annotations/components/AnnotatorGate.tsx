"use client";

import { useState } from "react";
import styles from "../annotations.module.css";

/** Reviews are signed: the queue asks who is reviewing before it lets anyone lock or change a trace. */
export function AnnotatorGate({ onName }: { onName: (name: string) => void }) {
  const [draft, setDraft] = useState("");
  return (
    <section className={`panel ${styles.gate}`} aria-label="Annotator name">
      <h2>Who is reviewing?</h2>
      <p className="hint" style={{ margin: 0 }}>
        Your name is kept in this browser and recorded with every review, so the history says who changed
        what. Other annotators see it on the traces you have open.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (draft.trim()) onName(draft);
        }}
      >
        <input
          type="text"
          aria-label="Your name"
          placeholder="e.g. Ada Lovelace"
          maxLength={64}
          // biome-ignore lint/a11y/noAutofocus: the one thing to do on this screen
          autoFocus
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
        <button type="submit" className="primary" disabled={!draft.trim()}>
          Start reviewing
        </button>
      </form>
    </section>
  );
}

export function WhoAmI({ name, onChange }: { name: string; onChange: () => void }) {
  return (
    <div className={styles.whoami} data-testid="annotator">
      <span className={styles.avatar} aria-hidden="true">
        {name[0]?.toUpperCase()}
      </span>
      <span>
        Reviewing as <strong style={{ color: "var(--ink)" }}>{name}</strong>
      </span>
      <button type="button" className="hint" style={{ padding: "1px 8px" }} onClick={onChange}>
        change
      </button>
    </div>
  );
}
