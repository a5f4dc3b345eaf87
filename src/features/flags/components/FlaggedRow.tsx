import Link from "next/link";
import { SourceBadge } from "@/features/shared/components/Badges";
import { formatReward } from "@/features/shared/lib/formatReward";
import { stepLink } from "@/features/shared/lib/stepParam";
import { FLAG_CATEGORY_LABELS, FlagCategory } from "@/shared/enums";
import { verdictOf } from "@/shared/realAnswer";
import styles from "../flags.module.css";
import type { FlaggedStep } from "../types";

/** One flagged step: the action, its episode, the flag, how it compares with the real answer, and a way to it. */
export function FlaggedRow({ step: s }: { step: FlaggedStep }) {
  const verdict = verdictOf({
    nextState: s.nextState,
    reward: s.reward,
    done: false,
    valid: true,
    realNextState: s.realNextState,
    realReward: s.realReward,
    realDone: null,
    realValid: null,
  });
  const href = stepLink(s.trajectory.id, s.index);
  return (
    <tr>
      <td>
        <div>step {s.index + 1}</div>
        <div className={styles.clip} title={s.action}>
          {s.action}
        </div>
      </td>
      <td>
        <div>{s.trajectory.task.instruction}</div>
        <div className="row hint" style={{ gap: 8, marginTop: 2 }}>
          <SourceBadge source={s.trajectory.source} />
          <span>{s.trajectory.domain}</span>
          {s.trajectory.run ? (
            <span>
              {s.trajectory.run.name} · iteration {s.trajectory.iteration}
            </span>
          ) : null}
        </div>
      </td>
      <td className={styles.noteCell}>
        <div className="row" style={{ gap: 6 }}>
          <span className="badge bad" data-testid="flagged-category">
            {FLAG_CATEGORY_LABELS[FlagCategory.safeParse(s.flagCategory).data ?? "other"]}
          </span>
          {s.flagAuthor ? (
            <span className="hint" data-testid="flagged-author">
              by {s.flagAuthor}
            </span>
          ) : null}
        </div>
        <div style={{ marginTop: 4 }}>{s.flagNote ?? <span className="hint">no note</span>}</div>
      </td>
      <td>
        {verdict ? (
          <span className="hint">
            state {verdict.state ? <b className={styles.bad}>differs</b> : "same"} · reward{" "}
            {formatReward(s.reward, { decimals: 3, trim: true })} vs{" "}
            {formatReward(s.realReward ?? 0, { decimals: 3, trim: true })}
          </span>
        ) : (
          <span className="hint">no real answer</span>
        )}
      </td>
      <td className="hint">{s.flaggedAt?.toLocaleString()}</td>
      <td>
        <Link href={href} aria-label={`Open step ${s.index + 1} of ${s.trajectory.task.instruction}`}>
          open →
        </Link>
      </td>
    </tr>
  );
}
