import type { ReviewAction } from "@/shared/enums";
import styles from "../annotations.module.css";
import { clock } from "../lib/time";
import { truncate } from "../lib/truncate";
import type { LockState } from "../lib/useItemLock";
import type { AnnotationDetail } from "../types";
import { LockBanner } from "./LockBanner";
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
  /** Undoes the annotator's last accept, edit or reject, wherever it was. */
  onUndo: () => void;
}

/** The header shows this much of the task's instruction; the step's context below shows all of it. */
const INSTRUCTION_CHARS = 140;

/** Where the item sits in the queue, its status and teacher, the review actions, and who holds it. */
export function ReviewHeader({ item, position, total, lock, nudge, busy, onAction, onUndo }: Props) {
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
            title="Put a reviewed trace back in the queue"
          >
            Reopen
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={onUndo}
            title="Undo your last accept, edit or reject"
          >
            Undo <kbd>u</kbd>
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
