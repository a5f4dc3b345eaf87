import type { ReviewAction } from "@/shared/enums";
import styles from "../annotations.module.css";
import { clock } from "../lib/time";
import type { LockState } from "../lib/useItemLock";
import type { AnnotationDetail } from "../types";
import { LockIcon } from "./LockIcon";
import { StatusBadge } from "./StatusBadge";

interface Props {
  item: AnnotationDetail;
  position: number;
  total: number;
  lock: LockState;
  busy: boolean;
  onAction: (action: ReviewAction) => void;
}

function LockBanner({ lock }: { lock: LockState }) {
  if (lock.kind === "held")
    return (
      <div className={`${styles.banner} ${styles.bannerHeld}`} data-testid="lock-banner">
        <LockIcon open />
        You have this trace until {clock(lock.until)}; the lock renews while it is open.
      </div>
    );
  if (lock.kind === "locked")
    return (
      <div className={`${styles.banner} ${styles.bannerLocked}`} data-testid="lock-banner">
        <LockIcon />
        {lock.message}. You can read it; you can review it once they move on or the lock expires.
      </div>
    );
  if (lock.kind === "error")
    return (
      <div className="error" data-testid="lock-banner">
        {lock.message}
      </div>
    );
  return (
    <div className={`${styles.banner} hint`} data-testid="lock-banner">
      Taking the lock…
    </div>
  );
}

/** Where the item sits in the queue, its status and teacher, the review actions, and who holds it. */
export function ReviewHeader({ item, position, total, lock, busy, onAction }: Props) {
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
      <LockBanner lock={lock} />
    </>
  );
}
