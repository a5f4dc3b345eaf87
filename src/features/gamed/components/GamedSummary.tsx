import { formatReward } from "@/features/shared/lib/formatReward";
import styles from "../gamed.module.css";
import { PARTING_REASONS, REASON_LABELS, REASON_TITLES, signed } from "../lib/gamedView";
import type { PartingBreakdown, GamedSummary as Summary } from "../types";

const pct = (n: number, of = 1) => (of === 0 ? "—" : `${((n / of) * 100).toFixed(1)}%`);
const reward = (x: number) => formatReward(x, { decimals: 2 });

/** One reason's share of the episodes that part, as a bar and a count. */
function ReasonBar({ n, of, gamed }: { n: number; of: number; gamed?: boolean }) {
  const share = of === 0 ? 0 : n / of;
  return (
    <div className={`${styles.bar} ${gamed ? styles.gamedBar : ""}`}>
      <i style={{ width: `${Math.round(share * 56)}px` }} />
      <span>
        {n} ({pct(n, of)})
      </span>
    </div>
  );
}

/**
 * Why episodes part at their first divergent step: for each way a prediction can depart from the real answer,
 * how many of the parting episodes depart that way there (one step may depart in several ways).
 */
function WhyTheyPart({ all, gamed }: { all: PartingBreakdown; gamed: PartingBreakdown }) {
  return (
    <section className="panel" aria-label="Why they part">
      <h2>Why they part, at the first divergent step</h2>
      <table className={styles.breakdown}>
        <thead>
          <tr>
            <th />
            <th>all {all.parted} that part</th>
            <th>the {gamed.parted} gamed</th>
          </tr>
        </thead>
        <tbody>
          {PARTING_REASONS.map((reason) => (
            <tr key={reason} data-testid={`why-${reason}`}>
              <th title={REASON_TITLES[reason]}>{REASON_LABELS[reason]}</th>
              <td>
                <ReasonBar n={all[reason]} of={all.parted} />
              </td>
              <td>
                <ReasonBar n={gamed[reason]} of={gamed.parted} gamed />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint" style={{ margin: "8px 0 0" }} data-testid="never-part">
        {all.episodes - all.parted} of {all.episodes} episodes never part from the real replay. Cosmetic
        differences (case, spacing, the order of unchanged text) are no parting. A step can differ in several
        ways, so a column can add up to more than its episodes.
      </p>
    </section>
  );
}

/** The run's (or the filter's) figures: how often and by how much the experience model pays what reality does not. */
export function GamedSummary({ summary }: { summary: Summary }) {
  const s = summary;
  const figures = [
    {
      id: "gamed-share",
      value: pct(s.gamedShare),
      label: "gamed: synthetic success, real failure",
      detail: `${s.gamed} of ${s.ranked} episodes`,
      tone: s.gamed > 0 ? styles.bad : styles.good,
    },
    {
      id: "mean-excess",
      value: signed(s.meanExcess, reward),
      label: "mean excess (synthetic − real return)",
      detail: `${reward(s.meanSyntheticReturn)} synthetic vs ${reward(s.meanRealReturn)} real`,
      tone: s.meanExcess > 0 ? styles.bad : undefined,
    },
    {
      id: "success",
      value: `${pct(s.syntheticSuccessRate)} → ${pct(s.realSuccessRate)}`,
      label: "success: synthetic → real",
      detail: "real: the replay ended on a perfect reward",
    },
    {
      id: "real-ended-first",
      value: String(s.realEndedFirst),
      label: "real episode ended first",
      detail:
        s.unanswered > 0
          ? `${s.unanswered} episode${s.unanswered === 1 ? "" : "s"} without a real answer, not ranked`
          : "the model kept the episode going after reality ended it",
    },
  ];
  return (
    <div className={styles.summary}>
      <div className={styles.figures}>
        {figures.map((f) => (
          <div key={f.id} className={styles.figure}>
            <div className={`${styles.figureValue} ${f.tone ?? ""}`} data-testid={`summary-${f.id}`}>
              {f.value}
            </div>
            <div className={styles.figureLabel}>{f.label}</div>
            <div className={styles.figureDetail}>{f.detail}</div>
          </div>
        ))}
      </div>
      <WhyTheyPart all={s.parting.all} gamed={s.parting.gamed} />
    </div>
  );
}
