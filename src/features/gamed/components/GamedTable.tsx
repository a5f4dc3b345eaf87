import Link from "next/link";
import { useEffect, useRef } from "react";
import { formatReward } from "@/features/shared/lib/formatReward";
import styles from "../gamed.module.css";
import { REASON_LABELS, reasonsOf, signed, stepHref } from "../lib/gamedView";
import type { GamedEpisode } from "../types";

const reward = (x: number) => formatReward(x, { decimals: 2 });

function Outcome({ success }: { success: boolean }) {
  return <span className={`badge ${success ? "good" : "bad"}`}>{success ? "success" : "failure"}</span>;
}

interface Props {
  items: GamedEpisode[];
  /** Rank of the first row (the page's offset). */
  offset: number;
  selected: number;
  onSelect: (index: number) => void;
  /** Across runs, each row says its run. */
  showRun: boolean;
}

/**
 * The ranked episodes, largest excess first. The selected row stays in view as j/k move through the page; its
 * "parts at" link is where Enter goes.
 */
export function GamedTable({ items, offset, selected, onSelect, showRun }: Props) {
  const current = useRef<HTMLTableRowElement | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when the selection moves
  useEffect(() => {
    // A block body: scrollIntoView may return a promise, and React takes any return for a cleanup.
    current.current?.scrollIntoView({ block: "nearest" });
  }, [selected]);
  return (
    <table className="grid" aria-label="Gamed episodes">
      <thead>
        <tr>
          <th className={styles.num}>#</th>
          <th>Episode</th>
          <th className={styles.num}>Synthetic return</th>
          <th className={styles.num}>Real return</th>
          <th className={styles.num}>Excess</th>
          <th>Success: synthetic → real</th>
          <th>Parts at</th>
          <th>Reward parts at</th>
        </tr>
      </thead>
      <tbody>
        {items.map((e, i) => {
          const reasons = reasonsOf(e.parting);
          const endedEarly = e.realEndedAt !== null && e.realEndedAt < e.length - 1;
          return (
            <tr
              key={e.id}
              ref={i === selected ? current : undefined}
              className={i === selected ? styles.selected : ""}
              aria-selected={i === selected}
              data-testid="gamed-row"
              data-excess={e.excess}
              onClick={() => onSelect(i)}
            >
              <td className={`${styles.num} hint`}>{offset + i + 1}</td>
              <td>
                <span data-testid="gamed-instruction">{e.instruction}</span>
                <span className={styles.episodeLine}>
                  {showRun && e.runName ? `${e.runName} · ` : ""}
                  {e.domain} · iteration {e.iteration ?? "–"}
                  {e.group !== null ? ` · rollout ${e.group + 1}` : ""} · {e.length} steps
                </span>
              </td>
              <td className={styles.num}>{reward(e.syntheticReturn)}</td>
              <td className={styles.num}>
                {reward(e.realReturn)}
                {endedEarly ? (
                  <span
                    className={styles.episodeLine}
                    title="The real episode ended here; the model's rewards after it count only in the synthetic return"
                  >
                    real ended at step {(e.realEndedAt ?? 0) + 1}
                  </span>
                ) : null}
              </td>
              <td className={`${styles.num} ${e.excess > 0 ? styles.bad : ""}`} data-testid="gamed-excess">
                {signed(e.excess, reward)}
              </td>
              <td>
                <span className={styles.outcome}>
                  <Outcome success={e.syntheticSuccess} /> → <Outcome success={e.realSuccess} />
                  {e.gamed ? (
                    <span className="badge bad" data-testid="gamed-badge">
                      gamed
                    </span>
                  ) : null}
                </span>
              </td>
              <td>
                {e.parting ? (
                  <>
                    <Link
                      href={stepHref(e, e.parting.index)}
                      data-testid="parts-at"
                      aria-label={`Parts at step ${e.parting.index + 1}: open ${e.instruction} there`}
                    >
                      step {e.parting.index + 1}
                    </Link>
                    <span className={styles.reasons}>
                      {reasons.map((r) => (
                        <span key={r}>{REASON_LABELS[r]}</span>
                      ))}
                    </span>
                  </>
                ) : (
                  <span className="hint">never</span>
                )}
              </td>
              <td>
                {e.rewardPartsAt !== null ? (
                  <Link
                    href={stepHref(e, e.rewardPartsAt)}
                    title="The first step whose predicted reward departs from the real one"
                  >
                    step {e.rewardPartsAt + 1}
                  </Link>
                ) : (
                  <span className="hint">never</span>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
