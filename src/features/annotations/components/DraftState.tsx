import { clock } from "../lib/time";
import type { DraftStatus } from "../lib/useCorrectionDraft";

/** Where the draft stands: typed but not yet kept, being kept, kept (and since when), or not kept and why. */
export function DraftState({ status, restoredAt }: { status: DraftStatus; restoredAt: Date | null }) {
  const text =
    status.kind === "unsaved"
      ? "Unsaved changes…"
      : status.kind === "saving"
        ? "Saving draft…"
        : status.kind === "saved"
          ? restoredAt && status.at.getTime() === restoredAt.getTime()
            ? `Draft restored (saved ${clock(status.at)})`
            : `Draft saved ${clock(status.at)}`
          : status.kind === "error"
            ? `Draft not saved: ${status.message}`
            : "Not changed yet";
  return (
    <span
      className={status.kind === "error" ? "error" : "hint"}
      data-testid="draft-status"
      data-state={status.kind}
      role="status"
    >
      {text}
    </span>
  );
}
