import { getDb } from "../db";
import { type Heatmap, runHeatmap } from "./heatmap";

/**
 * The heatmap computed while the page renders on the server, handed to the client as its first data: the grid is
 * drawn right after hydration instead of after a second round trip. Null for an unknown run (the client's own
 * query then says so).
 */
export async function prefetchHeatmap(runId: string): Promise<Heatmap | null> {
  const db = await getDb();
  const run = await db.run.findUnique({ where: { id: runId }, select: { id: true } });
  return run ? runHeatmap(db, runId) : null;
}
