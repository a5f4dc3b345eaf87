import { TrajectorySource } from "@/shared/enums";
import { formatReward } from "../lib/formatReward";

/** Synthetic steps are the ones to doubt, real ones are ground truth; offline logs are the quiet default. */
const SOURCE_TONE: Record<TrajectorySource, string> = { offline: "muted", synthetic: "warn", real: "good" };

export function SourceBadge({ source }: { source: string }) {
  const known = TrajectorySource.safeParse(source);
  return <span className={`badge ${known.success ? SOURCE_TONE[known.data] : "muted"}`}>{source}</span>;
}

export function OutcomeBadge({ success }: { success: boolean }) {
  return <span className={`badge ${success ? "good" : "bad"}`}>{success ? "success" : "failure"}</span>;
}

export function RewardBadge({ reward }: { reward: number }) {
  return (
    <span className={`badge ${reward > 0 ? "good" : "muted"}`}>
      reward {formatReward(reward, { decimals: 3, trim: true })}
    </span>
  );
}
