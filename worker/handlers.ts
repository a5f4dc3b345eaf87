import { collectOffline } from "@/server/collect/collectOffline";
import type { JobHandlers } from "@/server/queue/worker";
import { importTrajectoriesFile } from "@/server/trajectories/importTrajectories";

/** What the worker knows how to run, by job type. Each handler reports progress and honours cancellation. */
export function createHandlers(): JobHandlers {
  return {
    async import(payload, ctx) {
      ctx.progress(0, `importing ${payload.name}`);
      const summary = await importTrajectoriesFile(ctx.db, payload.path, payload.name);
      ctx.progress(1, `imported ${summary.imported} trajectories (${summary.duplicates} already there)`);
      return summary;
    },
    async collect(payload, ctx) {
      return collectOffline(ctx.db, payload, {
        signal: ctx.signal,
        onProgress: (done, total) => ctx.progress(done / total, `${done}/${total} episodes`),
      });
    },
  };
}
