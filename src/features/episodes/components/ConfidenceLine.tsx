import type { EpisodeStep } from "../types";

/** Below this the step is one the experience model was guessing at (the pessimism threshold's default). */
const LOW = 0.3;

function partsOf(value: unknown): [string, number][] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  return Object.entries(value).filter((e): e is [string, number] => typeof e[1] === "number");
}

/**
 * How far the experience model could be trusted on this step, and why: its confidence with the parts it is made
 * of (familiarity: how close the replay buffer's best demonstration is; match: how little of the analogue was
 * rewritten; agreement: how many analogues agree on the next state; outcome: how unanimous they were on the
 * reward and the end). Says, too, when the run's pessimism halted the episode here or cut its reward.
 */
export function ConfidenceLine({ step }: { step: EpisodeStep }) {
  if (step.confidence === null || step.confidence === undefined) return null;
  const parts = partsOf(step.confidenceParts);
  const low = step.confidence < LOW;
  return (
    <div className="row" style={{ gap: 8, marginTop: 10, flexWrap: "wrap" }} data-testid="confidence">
      <span
        className={`badge ${low ? "bad" : ""}`}
        title="the experience model's confidence in this prediction (0–100%)"
        data-testid="confidence-value"
      >
        confidence {Math.round(step.confidence * 100)}%
      </span>
      {parts.map(([name, value]) => (
        <span key={name} className="hint" data-testid="confidence-part">
          {name} {value.toFixed(2)}
        </span>
      ))}
      {step.pessimism ? (
        <span className="badge bad" data-testid="pessimism">
          {step.pessimism === "halted" ? "halted by pessimism" : "reward penalised by pessimism"}
          {step.predictedReward !== null && step.predictedReward !== undefined
            ? ` (the model said ${step.predictedReward})`
            : ""}
        </span>
      ) : null}
    </div>
  );
}
