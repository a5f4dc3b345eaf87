import styles from "../annotations.module.css";
import { modelOf } from "../lib/prediction";
import type { LockState } from "../lib/useItemLock";
import type { useReview } from "../lib/useReview";
import type { AnnotationDetail } from "../types";
import { CorrectionEditor } from "./CorrectionEditor";
import { ItemPeople } from "./ItemPeople";
import { OutcomeCorrections } from "./OutcomeCorrections";
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

/**
 * The item on screen: its header and actions, the reasoning beside its correction, the editor of the whole
 * prediction while one is written (else the corrected outcome), its step and its history.
 */
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
            onUndo={review.undo}
          />
          <ItemPeople item={item} />
          <ReviewNotice notice={review.notice} />
          <TraceReview item={item} editing={review.draft?.reasoning ?? null} />
          {review.draft ? (
            <CorrectionEditor
              model={modelOf(item)}
              draft={review.draft}
              status={review.draftStatus}
              restoredAt={review.restoredAt}
              saving={review.busy}
              canSave={lock.kind === "held"}
              onDraft={review.setDraft}
              onSave={() => void review.save()}
              onCancel={review.cancel}
            />
          ) : (
            <OutcomeCorrections item={item} />
          )}
          <StepContext item={item} />
          <ReviewHistory events={item.events} />
        </>
      ) : listed ? (
        <p className="hint">Loading trace…</p>
      ) : null}
    </div>
  );
}
