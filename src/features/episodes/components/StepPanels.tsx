import { RewardBadge } from "@/features/shared/components/Badges";
import styles from "../episodes.module.css";
import type { EpisodeStep } from "../types";
import { ConfidenceLine } from "./ConfidenceLine";

function asActions(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/**
 * The transition itself: the state and action it came from, the reasoning trace, and beside it the next state
 * and reward as the source says them (the experience model's prediction, for synthetic steps). All model text is
 * rendered as text (React escapes it), never as HTML.
 */
export function StepPanels({ step, synthetic }: { step: EpisodeStep; synthetic: boolean }) {
  const actions = asActions(step.stateActions);
  return (
    <div className="stepper">
      <section className="panel" aria-label="State">
        <h2>State</h2>
        <div className={styles.actionBox}>
          <div className={styles.sectionLabel}>Action</div>
          <pre className="text" data-testid="action">
            {step.action}
          </pre>
        </div>
        <pre className={`text ${styles.scroll}`} data-testid="state">
          {step.state}
        </pre>
        {actions.length > 0 ? (
          <>
            <div className="hint" style={{ marginTop: 10 }}>
              admissible actions
            </div>
            <ul className="actions-list">
              {actions.map((a) => (
                <li key={a}>{a}</li>
              ))}
            </ul>
          </>
        ) : null}
      </section>
      <section className="panel" aria-label="Reasoning trace">
        <h2>Reasoning trace</h2>
        <pre className="text" data-testid="reasoning">
          {step.reasoning ?? "(no reasoning recorded)"}
        </pre>
        {step.model ? (
          <p className="hint">
            {step.model}
            {step.latencyMs != null ? ` · ${Math.round(step.latencyMs)} ms` : ""}
            {step.completionTokens != null ? ` · ${step.completionTokens} tokens` : ""}
          </p>
        ) : null}
        {step.parseError ? <div className="error">{step.parseError}</div> : null}
      </section>
      <section className="panel" aria-label="Next state">
        <h2>
          {synthetic ? "Predicted next state" : "Next state"}
          <span className="row" style={{ gap: 6 }}>
            <span data-testid="reward">
              <RewardBadge reward={step.reward} />
            </span>
            {step.done ? <span className="badge">done</span> : null}
            {step.valid ? null : <span className="badge bad">invalid action</span>}
          </span>
        </h2>
        <pre className={`text ${styles.scroll}`} data-testid="next-state">
          {step.nextState}
        </pre>
        {synthetic ? <ConfidenceLine step={step} /> : null}
      </section>
    </div>
  );
}
