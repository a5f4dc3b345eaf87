"use client";

import { memo } from "react";
import styles from "../episodes.module.css";
import type { EpisodeStep } from "../types";

interface Props {
  steps: EpisodeStep[];
  differs: boolean[];
  current: number;
  onSelect: (index: number) => void;
}

/** One button per step; memoised so that a long episode's strip is not rebuilt for unrelated renders. */
export const StepDots = memo(function StepDots({ steps, differs, current, onSelect }: Props) {
  return (
    <div className="dots" role="tablist" aria-label="Steps">
      {steps.map((s, i) => (
        <button
          type="button"
          role="tab"
          aria-selected={i === current}
          key={s.id}
          title={`Step ${i + 1}: ${s.action}${differs[i] ? " · differs from the real answer" : ""}${s.flagged ? " · flagged" : ""}`}
          className={[
            i === current ? "current" : "",
            s.reward > 0 ? "reward" : "",
            s.valid ? "" : "invalid",
            differs[i] && i !== current ? styles.dotDiffers : "",
            s.flagged ? styles.dotFlagged : "",
          ].join(" ")}
          onClick={() => onSelect(i)}
        >
          {i + 1}
        </button>
      ))}
    </div>
  );
});
