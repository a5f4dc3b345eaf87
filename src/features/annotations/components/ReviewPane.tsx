import styles from "../annotations.module.css";
import type { LockState } from "../lib/useItemLock";
import type { useReview } from "../lib/useReview";
import type { AnnotationDetail } from "../types";
import { ReviewHeader } from "./ReviewHeader";
import { ReviewHistory } from "./ReviewHistory";
import { ReviewNotice } from "./ReviewNotice";
import { StepContext } from "./StepContext";
import { TraceReview } from "./TraceReview";

interface Props {
  item: AnnotationDetail | undefined;
  error: { message: string } | null;
  /** The list has arrived, so a missing item is loading rather than not yet asked for. */
  listed: boolean;
  position: number;
  total: number;
  lock: LockState;
  review: ReturnType<typeof useReview>;
}

/** The trace on screen: its header and actions, the trace beside its correction, its step and its history. */
export function ReviewPane({ item, error, listed, position, total, lock, review }: Props) {
  return (
    <div className={styles.detail}>
      {error ? <div className="error">{error.message}</div> : null}
      {item ? (
        <>
          <ReviewHeader
            item={item}
            position={position}
            total={total}
            lock={lock}
            nudge={review.lockNudge}
            busy={review.busy}
            onAction={review.act}
          />
          <ReviewNotice notice={review.notice} />
          <TraceReview
            item={item}
            draft={review.draft}
            saving={review.busy}
            onDraft={review.setDraft}
            onSave={review.save}
            onCancel={() => review.setDraft(null)}
          />
          <StepContext item={item} />
          <ReviewHistory events={item.events} />
        </>
      ) : listed ? (
        <p className="hint">Loading trace…</p>
      ) : null}
    </div>
  );
}
