import { FlagButton } from "@/features/flags/components/FlagButton";
import styles from "../episodes.module.css";
import type { EpisodeStep } from "../types";

interface Props {
  current: number;
  total: number;
  step: EpisodeStep | undefined;
  /** Why the step cannot be flagged, or null. */
  flagUnavailable: string | null;
  onFlag: () => void;
  onCheatsheet: () => void;
}

/** Where in the episode the view is, the keys that move it, and the step's flag button. */
export function StepBar({ current, total, step, flagUnavailable, onFlag, onCheatsheet }: Props) {
  return (
    <div className={styles.stepbar}>
      <div className={styles.stepbarLeft}>
        <strong data-testid="step-position">
          Step {current + 1} of {total}
        </strong>
        <span className="hint">
          <kbd>←</kbd>/<kbd>→</kbd> or <kbd>k</kbd>/<kbd>j</kbd> to move · <kbd>n</kbd>/<kbd>p</kbd> episodes
          ·{" "}
          <button type="button" className="hint" style={{ padding: "0 6px" }} onClick={onCheatsheet}>
            <kbd>?</kbd> shortcuts
          </button>
        </span>
      </div>
      {step ? <FlagButton flagged={step.flagged} unavailable={flagUnavailable} onOpen={onFlag} /> : null}
    </div>
  );
}
