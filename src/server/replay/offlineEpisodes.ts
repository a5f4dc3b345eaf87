import type { Split } from "@/core/types";
import type { Db } from "../db";
import type { StoredTransition } from "./lanceSchema";
import { selectStepRows, stepToTransition } from "./stepTransition";

/** One offline trajectory of a domain, its steps in order. */
export interface OfflineEpisode {
  trajectoryId: string;
  taskId: string;
  steps: StoredTransition[];
  /** The last step's success. */
  success: boolean;
  /** Which policy acted, where the logs say (base rates are per behaviour: core/trust). */
  policy?: string;
}

/**
 * A domain's offline trajectories, of one split's tasks or of all, in a fixed order (by trajectory id, then step):
 * a replay buffer's rows, what an experience model learns and an export must not depend on the database's order.
 * The one reader of offline logs: the replay buffer, an imported domain and the exporter all start here.
 */
export async function offlineEpisodes(
  db: Db,
  domain: string,
  options: { split?: Split } = {},
): Promise<OfflineEpisode[]> {
  const rows = await selectStepRows(
    db,
    `t.domain = ? AND t.source = 'offline'${options.split ? " AND k.split = ?" : ""} ORDER BY s."trajectoryId", s."index"`,
    ...(options.split ? [domain, options.split] : [domain]),
  );
  const episodes: OfflineEpisode[] = [];
  let current: OfflineEpisode | undefined;
  for (const row of rows) {
    if (current?.trajectoryId !== row.trajectoryId) {
      current = {
        trajectoryId: row.trajectoryId,
        taskId: row.trajectory.taskId,
        steps: [],
        success: false,
        ...(row.trajectory.policy ? { policy: row.trajectory.policy } : {}),
      };
      episodes.push(current);
    }
    const step = stepToTransition(row);
    current.steps.push(step);
    current.success = step.success;
  }
  return episodes;
}
