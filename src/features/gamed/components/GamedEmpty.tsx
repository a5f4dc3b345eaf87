import Link from "next/link";
import { methodLabelOf } from "@/core/train/methods";
import { isActiveStatus } from "@/shared/enums";
import styles from "../gamed.module.css";
import type { GamedSummary } from "../types";

/** Why there is nothing to rank, in the researcher's terms: which step of DreamGym never happened here. */
function reason(summary: GamedSummary, filtered: boolean): { title: string; detail: string } {
  const run = summary.run;
  if (run && !run.synthetic)
    return {
      title: `${methodLabelOf(run.method)} runs have no synthetic rollouts`,
      detail:
        "This run never trained in the experience model: its policy acted in the real environment (or was only " +
        "evaluated), so there is no synthetic reward to compare with the real one. Open a DreamGym or " +
        "DreamGym-S2R run to see where its experience model is gamed.",
    };
  if (summary.episodes === 0) {
    if (filtered)
      return {
        title: "No synthetic episodes match these filters",
        detail: "Widen the iteration range, or choose another run or domain.",
      };
    if (run && isActiveStatus(run.status))
      return {
        title: "No synthetic rollouts yet",
        detail: `The run is ${run.status}: its synthetic episodes are stored, beside the real environment's answers, as each iteration finishes.`,
      };
    return {
      title: "No synthetic rollouts",
      detail: run
        ? "The run stored no synthetic episodes."
        : "No run has trained in the experience model yet. Launch a DreamGym run from the Runs page.",
    };
  }
  return {
    title: "No synthetic episode has a real answer",
    detail:
      `None of the ${summary.episodes} synthetic episodes could be replayed in the real environment: their tasks ` +
      "have no goal the real environment can score (imported tasks), so there is no real return to compare.",
  };
}

export function GamedEmpty({ summary, filtered }: { summary: GamedSummary; filtered: boolean }) {
  const { title, detail } = reason(summary, filtered);
  return (
    <section className={`panel ${styles.empty}`} data-testid="gamed-empty">
      <h2>{title}</h2>
      <p className="hint">{detail}</p>
      {summary.run && !summary.run.synthetic ? (
        <p>
          <Link href="/runs">All runs →</Link>
        </p>
      ) : null}
    </section>
  );
}
