import { DEFAULT_EXPERIENCE_SETTINGS } from "@/core/experience/types";
import { config } from "@/env";
import { collectOffline } from "@/server/collect/collectOffline";
import { createTeacher } from "@/server/experience/backends";
import { writeTeacherTraces } from "@/server/experience/teacherTraces";
import type { JobContext, JobHandlers } from "@/server/queue/worker";
import { runRegressionCheck } from "@/server/regression/runCheck";
import { withReplayBuffer } from "@/server/replay/sharedReplayBuffer";
import { indexPending, rebuildIndex } from "@/server/replay/syncSteps";
import { trainJob } from "@/server/train/trainJob";
import { importTrajectoriesFile } from "@/server/trajectories/importTrajectories";
import { importTrustLine, measureImportedTrust } from "@/server/trust/importTrust";

/** New steps go into the replay buffer as part of the job that wrote them, so retrieval sees them at once. */
async function indexNewSteps(ctx: JobContext, from: number, to: number) {
  return indexPending(ctx.db, {
    signal: ctx.signal,
    onProgress: (done, total) =>
      ctx.progress(from + (to - from) * (done / Math.max(1, total)), `indexing ${done}/${total} steps`),
  });
}

/** What the worker knows how to run, by job type. Each handler reports progress and honours cancellation. */
export function createHandlers(): JobHandlers {
  return {
    async import(payload, ctx) {
      ctx.progress(0, `importing ${payload.name}`);
      const summary = await importTrajectoriesFile(ctx.db, payload.path, payload.name, ctx.fence);
      const index = await indexNewSteps(ctx, 0.5, 0.8);
      ctx.progress(0.8, "measuring the experience model on the held-out logs");
      const trust = await measureImportedTrust(ctx.db, summary.domains);
      const checked = importTrustLine(trust);
      ctx.progress(
        1,
        `imported ${summary.imported} trajectories (${summary.duplicates} already there)${checked ? `; ${checked}` : ""}`,
      );
      return { ...summary, indexed: index.indexed, trust };
    },
    async collect(payload, ctx) {
      const summary = await collectOffline(ctx.db, payload, {
        signal: ctx.signal,
        fence: ctx.fence,
        onProgress: (done, total) => ctx.progress((0.8 * done) / total, `${done}/${total} episodes`),
      });
      const index = await indexNewSteps(ctx, 0.8, 1);
      ctx.progress(1, `${summary.episodes} episodes, success ${(summary.successRate * 100).toFixed(1)}%`);
      return { ...summary, indexed: index.indexed };
    },
    async index(payload, ctx) {
      const hooks = {
        signal: ctx.signal,
        onProgress: (done: number, total: number) =>
          ctx.progress(done / Math.max(1, total), `${done}/${total} steps`),
      };
      const result = payload.rebuild ? await rebuildIndex(ctx.db, hooks) : await indexPending(ctx.db, hooks);
      return { indexed: result.indexed, total: result.total };
    },
    async train(payload, ctx) {
      try {
        return await trainJob(payload.runId, ctx);
      } finally {
        // The run's rollouts join the replay buffer whatever the run's outcome (a failed run's steps are data too);
        // an indexing failure here is the index's problem, reported by the next index job, not the run's.
        await indexNewSteps(ctx, 1, 1).catch((error) =>
          console.error(`indexing after run ${payload.runId} failed: ${(error as Error).message}`),
        );
      }
    },
    regression(payload, ctx) {
      return runRegressionCheck(ctx.db, payload.checkId, {
        signal: ctx.signal,
        fence: ctx.fence,
        progress: (fraction, message) => ctx.progress(fraction, message),
      });
    },
    async teacher(payload, ctx) {
      await indexNewSteps(ctx, 0, 0.05);
      const settings = { ...DEFAULT_EXPERIENCE_SETTINGS, k: payload.k, sources: ["offline" as const] };
      const teacher = createTeacher(config(), settings, payload.backend);
      return withReplayBuffer(ctx.db, (store) =>
        writeTeacherTraces(
          ctx.db,
          store,
          teacher,
          { limit: payload.limit, settings, ...(payload.domain ? { domain: payload.domain } : {}) },
          {
            signal: ctx.signal,
            fence: ctx.fence,
            jobId: ctx.job.id,
            onProgress: (done, total) =>
              ctx.progress(0.05 + (0.95 * done) / total, `${done}/${total} traces`),
          },
        ),
      );
    },
  };
}
