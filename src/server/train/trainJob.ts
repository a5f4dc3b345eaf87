import { isImportedDomain } from "@/core/envs/trainingDomain";
import { parseRunConfig } from "@/core/train/config";
import { runTraining } from "@/core/train/run";
import { recoverableFault } from "../queue/faults";
import { LeaseLost } from "../queue/fence";
import type { JobContext } from "../queue/worker";
import { JobCancelled, WorkerStopping } from "../queue/worker";
import { measureStoredFidelity } from "../regression/storedRunFidelity";
import { withReplayBuffer } from "../replay/sharedReplayBuffer";
import { runTrustData } from "../trust/runTrust";
import { type IterationWriter, iterationWriter } from "./iterationWriter";
import { llmReport } from "./llmReport";
import { type BuiltRunDeps, runDeps } from "./runDeps";
import { discardAfter, loadRunState } from "./runStore";
import { storedEpisodes } from "./storedEpisodes";

type Tx = Parameters<Parameters<JobContext["db"]["$transaction"]>[0]>[0];

/**
 * Runs a training run in the worker, from its last finished iteration when it has one: what a crashed attempt
 * wrote after that checkpoint is discarded first, so nothing is lost or counted twice.
 */
export async function trainJob(runId: string, ctx: JobContext) {
  const { db } = ctx;
  const run = await db.run.findUnique({ where: { id: runId } });
  if (!run) throw new Error(`No run with id ${runId}`);
  if (run.status === "succeeded" || run.status === "cancelled") return { runId, status: run.status };
  const config = parseRunConfig(run.config, `config of run ${runId}`);
  const resume = await loadRunState(db, runId);
  const discarded = await discardAfter(
    db,
    runId,
    resume ?? { iterations: 0, realTransitions: 0, syntheticTransitions: 0 },
    ctx.fence,
  );
  // Rows of discarded steps would still be retrieved as demonstrations (reconcile would find them too).
  if (discarded.length) await withReplayBuffer(db, (store) => store.deleteIds(discarded));
  await fenced(ctx, (tx) =>
    tx.run.update({
      where: { id: runId },
      data: { status: "running", error: null, startedAt: run.startedAt ?? new Date() },
    }),
  );
  let deps: BuiltRunDeps | undefined;
  let writer: IterationWriter | undefined;
  try {
    // Said on the run page while no iteration has finished (setting up can take tens of seconds).
    ctx.progress(0, "setting up: loading the domain, the offline data and the experience model");
    const built = await runDeps(db, config, { storing: true });
    deps = built;
    if (!resume) ctx.progress(0, "scoring the untrained policy on the held-out tasks before iteration 1");
    // Iteration i is stored while iteration i+1 computes (iterationWriter.ts).
    const writing = iterationWriter(
      ctx,
      { runId, config, domain: isImportedDomain(built.domain) ? undefined : built.domain },
      (iteration, progress) => ctx.progress(progress, `iteration ${iteration}`),
    );
    writer = writing;
    const result = await runTraining(config, {
      ...built,
      ...(resume ? { resume, storedEpisodes: () => storedEpisodes(db, runId, resume.iterations) } : {}),
      signal: ctx.signal,
      onIteration: (report) => {
        // A job stopped or cancelled during the last iteration stops here, as at the start of any other.
        ctx.signal.throwIfAborted();
        return writing.write(report);
      },
    });
    await writing.flush();
    const { checkpoint: _policy, ...rest } = result;
    const summary = built.llm
      ? { ...rest, llm: llmReport(built.llm.stats(), result.syntheticTransitions) }
      : rest;
    // Measured once here, so that the flagged list reads it rather than scoring every step of every run again.
    const fidelity = await measureStoredFidelity(db, runId);
    await fenced(ctx, (tx) =>
      tx.run.update({
        where: { id: runId },
        data: {
          status: "succeeded",
          progress: 1,
          result: summary as object,
          finishedAt: new Date(),
          realTransitions: result.realTransitions,
          syntheticTransitions: result.syntheticTransitions,
          ...runTrustData(result.final, "final"),
          ...(fidelity ? { fidelity } : {}),
        },
      }),
    );
    // An imported domain has no real success to report, only its synthetic proxy.
    const final = result.final.proxy
      ? { finalSyntheticSuccess: result.final.successRate }
      : { finalSuccess: result.final.successRate };
    return { runId, ...final, realTransitions: result.realTransitions };
  } catch (caught) {
    // What is in flight settles before the run's status changes; a lost lease there is the error that counts.
    const settled = await writer?.settle();
    const error = settled instanceof LeaseLost ? settled : caught;
    const cancelled = ctx.signal.aborted && ctx.signal.reason instanceof JobCancelled;
    // A worker that shuts down hands the run back: it goes on from its last iteration with the next worker.
    const stopping = ctx.signal.aborted && ctx.signal.reason instanceof WorkerStopping;
    // A fault of the machine (a full disk, a locked database) spends no attempt: the job waits it out (faults.ts).
    const fault = recoverableFault(error);
    const lastAttempt = !stopping && !fault && ctx.job.attempts >= ctx.job.maxAttempts;
    // A worker that lost the job leaves the run to its new owner (the fence below refuses it anyway).
    if (error instanceof LeaseLost) throw error;
    await fenced(ctx, (tx) =>
      tx.run.update({
        where: { id: runId },
        data: cancelled
          ? { status: "cancelled", finishedAt: new Date() }
          : stopping
            ? { status: "queued" }
            : {
                status: lastAttempt ? "failed" : "queued",
                error: fault ? `waiting: ${fault} (${(error as Error).message})` : (error as Error).message,
                ...(lastAttempt ? { finishedAt: new Date() } : {}),
              },
      }),
    ).catch((fenceError) => {
      if (!(fenceError instanceof LeaseLost)) throw fenceError;
    });
    throw error;
  } finally {
    await writer?.close();
    await deps?.close();
  }
}

/** A write to the run that commits only while this worker still holds the job. */
async function fenced<T>(ctx: JobContext, write: (tx: Tx) => Promise<T>): Promise<T> {
  return ctx.db.$transaction(async (tx) => {
    await ctx.fence(tx);
    return write(tx);
  });
}
