import { useMemo } from "react";
import { DiffText } from "@/features/shared/components/DiffText";
import { formatReward } from "@/features/shared/lib/formatReward";
import type { RealAnswer, Verdict } from "@/shared/realAnswer";
import styles from "../episodes.module.css";
import { diffStates } from "../lib/stepDiff";
import type { EpisodeStep } from "../types";

const fmt = (x: number) => formatReward(x, { decimals: 3, trim: true });
const yesNo = (b: boolean) => (b ? "yes" : "no");

interface Props {
  step: EpisodeStep;
  real: RealAnswer;
  verdict: Verdict;
  /** Index of the episode's first step whose prediction departed from the real answer, if before this one. */
  divergedAt: number | null;
  onJump: (index: number) => void;
}

/**
 * The experience model's prediction beside what the real environment did for the same history and action, with
 * the words that differ marked on both sides: the way to see a hallucinated transition.
 */
export function RealAnswerComparison({ step, real, verdict, divergedAt, onJump }: Props) {
  const diff = useMemo(() => diffStates(step.nextState, real.nextState), [step.nextState, real.nextState]);
  const rows = [
    { name: "reward", predicted: fmt(step.reward), real: fmt(real.reward), off: verdict.reward },
    { name: "done", predicted: yesNo(step.done), real: yesNo(real.done), off: verdict.done },
    { name: "valid action", predicted: yesNo(step.valid), real: yesNo(real.valid), off: verdict.valid },
  ];
  return (
    <section className={`panel ${styles.compare}`} aria-label="Prediction and real answer">
      <div className={styles.compareHead}>
        <h2 style={{ margin: 0 }}>Experience model vs real environment</h2>
        <span data-testid="verdict" className={`badge ${verdict.any ? "bad" : "good"}`}>
          {verdict.any ? "prediction differs from the real answer" : "prediction matches the real answer"}
        </span>
      </div>
      {divergedAt !== null ? (
        <p className={styles.drift} data-testid="drift">
          The episode left the real trajectory at step {divergedAt + 1}: the real environment replays the same
          actions from its own state, so from there on it answers a different situation than the one shown.{" "}
          <button type="button" onClick={() => onJump(divergedAt)}>
            go to step {divergedAt + 1}
          </button>
        </p>
      ) : null}
      <div className="row" style={{ alignItems: "flex-start", gap: 28, marginBottom: 10 }}>
        <table className={styles.compareTable} aria-label="Outcome comparison">
          <thead>
            <tr>
              <th />
              <th>predicted</th>
              <th>real</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.name}>
                <th>{r.name}</th>
                <td
                  data-testid={`predicted-${r.name.replace(" ", "-")}`}
                  className={r.off ? styles.mismatch : ""}
                >
                  {r.predicted}
                </td>
                <td data-testid={`real-${r.name.replace(" ", "-")}`} className={r.off ? styles.mismatch : ""}>
                  {r.real}
                </td>
              </tr>
            ))}
            <tr>
              <th>next state</th>
              <td colSpan={2} className={verdict.state ? styles.mismatch : styles.match}>
                {verdict.state ? "differs" : "same"}
              </td>
            </tr>
          </tbody>
        </table>
        <p className="hint" style={{ margin: 0, maxWidth: 420 }}>
          <mark className={styles.removed}>struck</mark> only in the prediction ·{" "}
          <mark className={styles.added}>green</mark> only in the real answer
          {diff.granularity !== "word" ? ` · compared by ${diff.granularity} (long texts)` : ""}
        </p>
      </div>
      <div className={styles.sideBySide}>
        <div className={styles.side}>
          <div className={styles.sectionLabel}>Predicted next state</div>
          <pre className={`text ${styles.scroll}`} data-testid="diff-predicted">
            <DiffText segments={diff.predicted} changedClass={styles.removed ?? ""} />
          </pre>
        </div>
        <div className={styles.side}>
          <div className={styles.sectionLabel}>Real next state</div>
          <pre className={`text ${styles.scroll}`} data-testid="diff-real">
            <DiffText segments={diff.real} changedClass={styles.added ?? ""} />
          </pre>
        </div>
      </div>
    </section>
  );
}
