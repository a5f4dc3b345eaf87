"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useDomainKind } from "@/features/domains/lib/useDomainKind";
import { useTRPC } from "@/trpc/react";
import styles from "../flags.module.css";

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

interface Figure {
  /** The data-testid suffix; the label may change, tests keep their hold. */
  id: string;
  label: string;
  value: string;
  /** The same figure over the steps still on the real path (none for counts). */
  onPath?: string;
  tone?: "good" | "bad";
  title: string;
}

/** What every figure but the flag count is measured on, and why it differs from the README's fidelity table. */
const SCOPE =
  "Closed loop: measured along the run's own synthetic episodes, where the policy acted on the model's " +
  "predictions and the real environment replayed the same actions from the task's start. Once a prediction " +
  "leaves the real path, the model and the real environment judge each next action on different pages, so " +
  "these figures fall below the README's fidelity table, which is teacher-forced (the model is always given " +
  "the real state). The second line of each figure counts only the steps still on the real path, the ones " +
  "comparable with that table.";

/**
 * A run's hallucination and fidelity figures: its synthetic steps that have the real environment's answer,
 * scored with the same metrics as the fidelity benchmark, along the episodes as they went (closed loop) and on
 * the steps whose state was still the real one (see server/steps/runFidelity).
 */
export function RunFidelity({ runId, iteration }: { runId: string; iteration?: number | undefined }) {
  const trpc = useTRPC();
  const query = useQuery(
    trpc.steps.fidelity.queryOptions({ runId, ...(iteration !== undefined ? { iteration } : {}) }),
  );
  const { kindOf } = useDomainKind();
  if (query.error) return <div className="error">{query.error.message}</div>;
  if (!query.data) return <p className="hint">Measuring the run's fidelity…</p>;
  const f = query.data;
  const onPath = f.onPath.transitions > 0 ? f.onPath : null;
  const figures: Figure[] = [
    {
      id: "next-state-differs",
      label: "next state differs",
      value: pct(f.differs),
      ...(onPath ? { onPath: pct(1 - onPath.exactMatch) } : {}),
      tone: f.differs > 0.5 ? "bad" : undefined,
      title: "Share of predicted next states that are not the real next state (words, ignoring case)",
    },
    {
      id: "hallucinated-elements",
      label: "hallucinated elements",
      value: pct(f.report.hallucinationRate),
      ...(onPath ? { onPath: pct(onPath.hallucinationRate) } : {}),
      tone: f.report.hallucinationRate > 0.2 ? "bad" : undefined,
      title: "Predicted page elements found neither in the real next state nor in what the model was given",
    },
    {
      id: "reward-accuracy",
      label: "reward accuracy",
      value: pct(f.report.rewardAccuracy),
      ...(onPath ? { onPath: pct(onPath.rewardAccuracy) } : {}),
      tone: f.report.rewardAccuracy >= 0.9 ? "good" : "bad",
      title: "Share of steps whose predicted reward is within 0.1 of the real reward",
    },
    {
      id: "validity-agreement",
      label: "validity agreement (closed loop)",
      value: pct(f.report.invalidActionAgreement),
      ...(onPath ? { onPath: pct(onPath.invalidActionAgreement) } : {}),
      tone: f.report.invalidActionAgreement >= 0.9 ? "good" : "bad",
      title:
        "Share of steps where the model and the real environment agree on whether the action was valid. " +
        "The model judges it on the page it predicted, the real environment on the page the same actions " +
        "really lead to: after the episode left the real path, an action picked from a predicted element the " +
        "real page lacks is valid to the model and invalid in reality. On the real path both see the same " +
        "page, as in the README's teacher-forced table (invalid agr.).",
    },
    {
      id: "token-F1",
      label: "token F1",
      value: f.report.tokenF1.toFixed(2),
      ...(onPath ? { onPath: onPath.tokenF1.toFixed(2) } : {}),
      title: "Word overlap between predicted and real next states",
    },
    {
      id: "flagged-steps",
      label: "flagged steps",
      value: String(f.flagged),
      tone: f.flagged > 0 ? "bad" : undefined,
      title: "Steps of this run a researcher flagged as hallucinated",
    },
  ];
  return (
    <section aria-label="Run fidelity" data-testid="run-fidelity">
      <div className={styles.figuresHead}>
        <h2 style={{ margin: 0 }}>
          Fidelity of <Link href={`/trajectories?run=${encodeURIComponent(f.runId)}`}>{f.runName}</Link>
          {f.iteration !== null ? ` · iteration ${f.iteration}` : ""}
        </h2>
        <span className="hint">
          {f.withRealAnswer} of {f.syntheticSteps} synthetic steps have the real environment's answer
        </span>
      </div>
      {f.withRealAnswer === 0 ? (
        <p className="hint" data-testid="fidelity-none">
          {kindOf(f.domain) !== "imported"
            ? "No synthetic step of this run has a real answer yet, so there is nothing to compare."
            : `${f.domain} is an imported domain: it has no real environment to answer the synthetic steps, so its fidelity cannot be measured here (see the run's proxies).`}
        </p>
      ) : (
        <>
          <p className={`hint ${styles.scope}`} data-testid="fidelity-scope" title={SCOPE}>
            Along the run's episodes (closed loop); second line: the {f.onPath.transitions} step
            {f.onPath.transitions === 1 ? "" : "s"} still on the real path, comparable with the README's
            teacher-forced fidelity table.
          </p>
          <div className={styles.figures}>
            {figures.map((fig) => (
              <div key={fig.id} className={styles.figure} title={fig.title}>
                <div
                  className={`${styles.figureValue} ${fig.tone ? styles[fig.tone] : ""}`}
                  data-testid={`fidelity-${fig.id}`}
                >
                  {fig.value}
                </div>
                <div className={styles.figureLabel}>{fig.label}</div>
                {fig.onPath !== undefined ? (
                  <div className={styles.figureOnPath} data-testid={`fidelity-on-path-${fig.id}`}>
                    {fig.onPath} on the real path
                  </div>
                ) : null}
              </div>
            ))}
          </div>
        </>
      )}
    </section>
  );
}
