import { statusTone } from "../format";

export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge ${statusTone(status)}`} data-testid="run-status">
      {status}
    </span>
  );
}
