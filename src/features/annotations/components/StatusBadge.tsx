const TONE: Record<string, string> = { pending: "muted", accepted: "good", edited: "", rejected: "bad" };

export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge ${TONE[status] ?? "muted"}`} data-testid="annotation-status">
      {status}
    </span>
  );
}
