import type { ReviewAction } from "@/shared/enums";
import styles from "../annotations.module.css";
import { clock, describeLock } from "../lib/time";
import { truncate } from "../lib/truncate";
import type { LockState } from "../lib/useItemLock";
import type { AnnotationDetail } from "../types";
import { LockIcon } from "./LockIcon";
import { StatusBadge } from "./StatusBadge";

interface Props {
  item: AnnotationDetail;
  position: number;
  total: number;
  lock: LockState;
  /** A review key pressed without the lock: the banner, which says why, says so (once, not in a second box). */
  nudge: string | null;
  busy: boolean;
  onAction: (action: ReviewAction) => void;
}

/** The header shows this much of the task's instruction; the step's context below shows all of it. */
const INSTRUCTION_CHARS = 140;

function Nudge({ nudge }: { nudge: string | null }) {
  return nudge ? (
    <strong data-testid="lock-nudge" style={{ marginLeft: 4 }}>
      {nudge} waits for the lock.
    </strong>
  ) : null;
}

/** Who holds the trace on screen, said once, in local time: the queue never repeats it in an error box. */
function LockBanner({ lock, nudge }: { lock: LockState; nudge: string | null }) {
  if (lock.kind === "held")
    return (
      <div className={`${styles.banner} ${styles.bannerHeld}`} data-testid="lock-banner">
        <LockIcon open />
        You have this trace until {clock(lock.until)}; the lock renews while it is open.
      </div>
    );
  if (lock.kind === "locked")
    return (
      <div className={`${styles.banner} ${styles.bannerLocked}`} data-testid="lock-banner" role="status">
        <LockIcon />
        <span>
          <strong>{describeLock(lock.holder, lock.until)}</strong>. You can read it; you can review it once
          they move on or the lock expires.
          <Nudge nudge={nudge} />
        </span>
      </div>
    );
  if (lock.kind === "error")
    return (
      <div className="error" data-testid="lock-banner" role="status">
        {lock.message}
        <Nudge nudge={nudge} />
      </div>
    );
  return (
    <div className={`${styles.banner} hint`} data-testid="lock-banner" role="status">
      Taking the lock…
      <Nudge nudge={nudge} />
    </div>
  );
}

/** Where the item sits in the queue, its status and teacher, the review actions, and who holds it. */
export function ReviewHeader({ item, position, total, lock, nudge, busy, onAction }: Props) {
  const instruction = item.step.trajectory.task.instruction;
  const disabled = busy || lock.kind !== "held";
  return (
    <>
      <div className={styles.head}>
        <div className={styles.headMeta}>
          <strong style={{ color: "var(--ink)" }} data-testid="item-position">
            Item {position} of {total}
          </strong>
          <StatusBadge status={item.status} />
          <span>
            teacher <span className="mono">{item.teacher}</span>
          </span>
          {item.author ? (
            <span>
              by <strong>{item.author}</strong>
              {item.reviewedAt ? ` · ${clock(item.reviewedAt)}` : ""}
            </span>
          ) : null}
        </div>
        <div className={styles.actions}>
          <button
            type="button"
            className={styles.accept}
            disabled={disabled}
            onClick={() => onAction("accept")}
          >
            Accept <kbd>a</kbd>
          </button>
          <button type="button" disabled={disabled} onClick={() => onAction("edit")}>
            Edit <kbd>e</kbd>
          </button>
          <button
            type="button"
            className={styles.reject}
            disabled={disabled}
            onClick={() => onAction("reject")}
          >
            Reject <kbd>r</kbd>
          </button>
          <button
            type="button"
            disabled={disabled || item.status === "pending"}
            onClick={() => onAction("reopen")}
          >
            Reopen <kbd>u</kbd>
          </button>
        </div>
      </div>
      <p className={styles.headInstruction} title={instruction} data-testid="review-instruction">
        {truncate(instruction, INSTRUCTION_CHARS)}
      </p>
      <LockBanner lock={lock} nudge={nudge} />
    </>
  );
}
