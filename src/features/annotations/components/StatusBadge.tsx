import type { AnnotationStatus } from "@/shared/enums";

const TONE: Record<AnnotationStatus, string> = {
  pending: "muted",
  accepted: "good",
  edited: "",
  rejected: "bad",
};

export function StatusBadge({ status }: { status: AnnotationStatus }) {
  return (
    <span className={`badge ${TONE[status]}`} data-testid="annotation-status">
      {status}
    </span>
  );
}
