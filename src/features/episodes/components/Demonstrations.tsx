import Link from "next/link";
import { RewardBadge, SourceBadge } from "@/features/shared/components/Badges";
import { stepLink } from "@/features/shared/lib/stepParam";
import styles from "../episodes.module.css";
import type { Demonstration } from "../types";

/**
 * The transitions the experience model retrieved from the replay buffer for this step, most similar first; each
 * opens at its own step in its own episode.
 */
export function Demonstrations({
  demonstrations,
  loading,
}: {
  demonstrations: Demonstration[];
  loading: boolean;
}) {
  return (
    <section className={`panel ${styles.demos}`} aria-label="Retrieved demonstrations">
      <h2>
        Retrieved demonstrations{" "}
        <span className="hint" style={{ fontWeight: 400 }}>
          {loading ? "loading…" : `${demonstrations.length} from the replay buffer, most similar first`}
        </span>
      </h2>
      {!loading && demonstrations.length === 0 ? (
        <p className="hint" style={{ margin: 0 }}>
          No demonstrations were retrieved for this step.
        </p>
      ) : null}
      <ol className={styles.demoList} data-testid="demonstrations">
        {demonstrations.map((d) => (
          <li key={d.stepId} className={styles.demo}>
            <span className={styles.demoRank}>#{d.rank}</span>
            {d.step ? (
              <div className={styles.demoBody}>
                <div className={styles.demoMeta}>
                  <SourceBadge source={d.step.source} />
                  <span>{d.step.domain}</span>
                  {d.step.policy ? <span className="mono">{d.step.policy}</span> : null}
                  <RewardBadge reward={d.step.reward} />
                  {d.step.valid ? null : <span className="badge bad">invalid</span>}
                  <span className={styles.demoLine} title={d.step.instruction}>
                    {d.step.instruction}
                  </span>
                </div>
                <div className={styles.demoLine} title={d.step.state}>
                  <strong>state</strong> {d.step.state}
                </div>
                <div className={styles.demoLine} title={d.step.action}>
                  <strong>action</strong> {d.step.action}
                </div>
                <div className={styles.demoLine} title={d.step.nextState}>
                  <strong>next</strong> {d.step.nextState}
                </div>
              </div>
            ) : (
              <div className="hint">step {d.stepId} is no longer in the database</div>
            )}
            {d.step ? (
              <Link href={stepLink(d.step.trajectoryId, d.step.index)}>open step {d.step.index + 1} →</Link>
            ) : (
              <span />
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
