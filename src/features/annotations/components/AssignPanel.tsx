"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { AnnotationFilter } from "@/shared/annotationFilter";
import { useTRPC } from "@/trpc/react";
import styles from "../annotations.module.css";

interface Props {
  filter: AnnotationFilter;
  annotators: { email: string; name: string }[];
}

/**
 * Hands out work: the next N pending items nobody has yet (under the queue's domain and teacher filters) to one
 * annotator, and a share of them also to a second, whose verdicts are then compared.
 */
export function AssignPanel({ filter, annotators }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [annotator, setAnnotator] = useState("");
  const [count, setCount] = useState("10");
  const [second, setSecond] = useState("");
  const [percent, setPercent] = useState("20");
  const assign = useMutation(
    trpc.annotations.assignNext.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.annotations.pathKey() }),
    }),
  );
  const submit = () =>
    assign.mutate({
      assign: {
        annotator,
        count: Number(count),
        ...(second ? { overlap: { with: second, percent: Number(percent) } } : {}),
      },
      filter: {
        ...(filter.domain ? { domain: filter.domain } : {}),
        ...(filter.teacher ? { teacher: filter.teacher } : {}),
      },
    });
  const people = (label: string, value: string, set: (v: string) => void, none: string) => (
    <label className="field">
      {label}
      <select aria-label={label} value={value} onChange={(e) => set(e.target.value)}>
        <option value="">{none}</option>
        {annotators.map((a) => (
          <option key={a.email} value={a.email}>
            {a.name}
          </option>
        ))}
      </select>
    </label>
  );
  const done = assign.data;
  const n = Number(count);
  const share = Number(percent);
  const countProblem =
    !Number.isInteger(n) || n < 1 || n > 1000
      ? "The number of items is a whole number from 1 to 1,000."
      : second && (!Number.isFinite(share) || share < 0 || share > 100)
        ? "The overlap is a share from 0 to 100%."
        : null;
  return (
    <section className={`panel ${styles.sidePanel}`} aria-label="Assign work" data-testid="assign">
      <h2>Assign work</h2>
      <div style={{ display: "grid", gap: 6 }}>
        {people("Assign to", annotator, setAnnotator, "choose an annotator")}
        <label className="field">
          Next pending items
          <input
            aria-label="How many items"
            inputMode="numeric"
            value={count}
            onChange={(e) => setCount(e.target.value)}
          />
        </label>
        {people("Overlap with", second, setSecond, "no overlap")}
        {second ? (
          <label className="field">
            Share also to them (%)
            <input
              aria-label="Overlap percent"
              inputMode="numeric"
              value={percent}
              onChange={(e) => setPercent(e.target.value)}
            />
          </label>
        ) : null}
        {countProblem ? <span className="hint">{countProblem}</span> : null}
        <button
          type="button"
          className="primary"
          disabled={!annotator || countProblem !== null || assign.isPending}
          onClick={submit}
        >
          Assign
        </button>
      </div>
      {assign.error ? <div className="error">{assign.error.message}</div> : null}
      {done ? (
        <p className="hint" role="status" data-testid="assign-result" style={{ margin: "6px 0 0" }}>
          Assigned {done.assigned} item{done.assigned === 1 ? "" : "s"}
          {done.overlapping ? `, ${done.overlapping} of them to two annotators` : ""}.
          {done.assigned === 0 ? " No pending item is left unassigned here." : ""}
        </p>
      ) : null}
    </section>
  );
}
