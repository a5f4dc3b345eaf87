export function SourceBadge({ source }: { source: string }) {
  const tone = source === "synthetic" ? "warn" : source === "real" ? "good" : "muted";
  return <span className={`badge ${tone}`}>{source}</span>;
}

export function OutcomeBadge({ success }: { success: boolean }) {
  return <span className={`badge ${success ? "good" : "bad"}`}>{success ? "success" : "failure"}</span>;
}

export function RewardBadge({ reward }: { reward: number }) {
  return <span className={`badge ${reward > 0 ? "good" : "muted"}`}>reward {Number(reward.toFixed(3))}</span>;
}
