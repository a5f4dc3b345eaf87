import styles from "../annotations.module.css";
import { clock, describeLock } from "../lib/time";
import type { LockState } from "../lib/useItemLock";
import { LockIcon } from "./LockIcon";

function Nudge({ nudge }: { nudge: string | null }) {
  return nudge ? (
    <strong data-testid="lock-nudge" style={{ marginLeft: 4 }}>
      {nudge} waits for the lock.
    </strong>
  ) : null;
}

/** Who holds the trace on screen, said once, in local time: the queue never repeats it in an error box. */
export function LockBanner({ lock, nudge }: { lock: LockState; nudge: string | null }) {
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
