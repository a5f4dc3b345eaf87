import styles from "../annotations.module.css";
import type { Notice } from "../lib/useReview";

/** What the queue says under the review header: a refusal as an alert, an answer to a key that did nothing as status. */
export function ReviewNotice({ notice }: { notice: Notice | null }) {
  if (notice?.tone === "error")
    return (
      <div className="error" role="alert" data-testid="review-error">
        {notice.text}
      </div>
    );
  if (notice)
    return (
      <div className={styles.notice} role="status" data-testid="review-notice">
        {notice.text}
      </div>
    );
  return null;
}
