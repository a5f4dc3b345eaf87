import Link from "next/link";
import { OutcomeBadge, SourceBadge } from "@/features/shared/components/Badges";
import { formatReward } from "@/features/shared/lib/formatReward";
import styles from "../episodes.module.css";
import type { Episode } from "../types";

/** The episode's task and where it comes from: domain, source, policy, outcome, return, run and task. */
export function EpisodeMeta({ episode: t }: { episode: Episode }) {
  return (
    <>
      <h1 data-testid="instruction">{t.task.instruction}</h1>
      <div className={styles.meta}>
        <span>{t.domain}</span>
        <SourceBadge source={t.source} />
        {t.policy ? <span className="mono">{t.policy}</span> : null}
        <OutcomeBadge success={t.success} />
        <span data-testid="return" data-value={t.totalReward}>
          return {formatReward(t.totalReward)}
        </span>
        {t.run ? (
          <span>
            run <Link href={`/trajectories?run=${encodeURIComponent(t.run.id)}`}>{t.run.name}</Link> ·
            iteration {t.iteration}
            {t.group !== null ? ` · rollout ${t.group + 1}` : ""}
          </span>
        ) : null}
        <Link
          className="mono"
          href={`/trajectories?task=${encodeURIComponent(t.task.id)}`}
          title="All episodes of this task"
        >
          {t.task.id}
        </Link>
      </div>
    </>
  );
}
