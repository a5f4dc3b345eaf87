"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/trpc/react";
import styles from "../flags.module.css";

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

interface Figure {
  label: string;
  value: string;
  tone?: "good" | "bad";
  title: string;
}

/**
 * A run's hallucination and fidelity figures: its synthetic steps that have the real environment's answer,
 * scored with the same metrics as the fidelity benchmark.
 */
export function RunFidelity({ runId, iteration }: { runId: string; iteration?: number | undefined }) {
  const trpc = useTRPC();
  const query = useQuery(
    trpc.steps.fidelity.queryOptions({ runId, ...(iteration !== undefined ? { iteration } : {}) }),
  );
  if (query.error) return <div className="error">{query.error.message}</div>;
  if (!query.data) return <p className="hint">Measuring the run's fidelity…</p>;
  const f = query.data;
  const figures: Figure[] = [
    {
      label: "next state differs",
      value: pct(f.differs),
      tone: f.differs > 0.5 ? "bad" : undefined,
      title: "Share of predicted next states that are not the real next state (words, ignoring case)",
    },
    {
      label: "hallucinated elements",
      value: pct(f.report.hallucinationRate),
      tone: f.report.hallucinationRate > 0.2 ? "bad" : undefined,
      title: "Predicted page elements found neither in the real next state nor in what the model was given",
    },
    {
      label: "reward accuracy",
      value: pct(f.report.rewardAccuracy),
      tone: f.report.rewardAccuracy >= 0.9 ? "good" : "bad",
      title: "Share of steps whose predicted reward is within 0.1 of the real reward",
    },
    {
      label: "validity agreement",
      value: pct(f.report.invalidActionAgreement),
      tone: f.report.invalidActionAgreement >= 0.9 ? "good" : "bad",
      title: "Share of steps where the model and the real environment agree on whether the action was valid",
    },
    {
      label: "token F1",
      value: f.report.tokenF1.toFixed(2),
      title: "Word overlap between predicted and real next states",
    },
    {
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
        <p className="hint">
          No synthetic step of this run has a real answer yet, so there is nothing to compare.
        </p>
      ) : (
        <div className={styles.figures}>
          {figures.map((fig) => (
            <div key={fig.label} className={styles.figure} title={fig.title}>
              <div
                className={`${styles.figureValue} ${fig.tone ? styles[fig.tone] : ""}`}
                data-testid={`fidelity-${fig.label.replaceAll(" ", "-")}`}
              >
                {fig.value}
              </div>
              <div className={styles.figureLabel}>{fig.label}</div>
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
