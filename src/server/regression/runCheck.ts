import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "../db";
import type { Fence } from "../queue/fence";
import { JobCancelled, WorkerStopping } from "../queue/worker";
import { flaggedCase, flaggedCaseSteps } from "./flaggedCases";
import { heldOutCases } from "./heldOutCases";
import { isRight, judgeCase } from "./judge";
import { StoredCheckModel, settingsOf } from "./version";
import { versionModel } from "./versionModel";

export interface CheckHooks {
  signal: AbortSignal;
  fence: Fence;
  progress(fraction: number, message: string): void;
}

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
type CaseRow = Omit<Prisma.RegressionCaseCreateManyInput, "checkId">;

/** Flagged cases are written in batches of this many: a crash loses at most one batch of predictions. */
const BATCH = 10;

async function fenced<T>(db: Db, fence: Fence, write: (tx: Tx) => Promise<T>): Promise<T> {
  return db.$transaction(async (tx) => {
    await fence(tx);
    return write(tx);
  });
}

/**
 * Runs one version of the experience model against a domain's flagged cases and its held-out transitions, and
 * stores each case's prediction and verdict (RegressionCase) and the version's fidelity (RegressionCheck). A
 * crashed attempt's flagged cases are kept and skipped; the held-out ones are asked again and replaced as one
 * (the queue's promise: payloads.ts).
 */
export async function runRegressionCheck(db: Db, checkId: string, hooks: CheckHooks) {
  const check = await db.regressionCheck.findUnique({ where: { id: checkId } });
  if (!check) throw new Error(`No regression check with id ${checkId}`);
  if (check.status === "succeeded" || check.status === "cancelled") return { checkId, status: check.status };
  const parsed = StoredCheckModel.safeParse(check.model);
  if (!parsed.success)
    throw new Error(`Regression check ${checkId}: its model is not a version this build reads`);
  const { version, scope } = parsed.data;
  await fenced(db, hooks.fence, (tx) =>
    tx.regressionCheck.update({ where: { id: checkId }, data: { status: "running" } }),
  );
  try {
    const settings = settingsOf(version);
    const built = await versionModel(db, version, scope.domain);
    const steps = await flaggedCaseSteps(db, scope.domain);
    const done = new Set(
      (
        await db.regressionCase.findMany({ where: { checkId, source: "flagged" }, select: { stepId: true } })
      ).map((c) => c.stepId),
    );
    const total = steps.length + scope.heldOut;
    const report = (n: number, what: string) => hooks.progress(total === 0 ? 1 : n / total, what);
    let pending: CaseRow[] = [];
    const flush = async () => {
      const rows = pending;
      pending = [];
      if (rows.length > 0)
        await fenced(db, hooks.fence, (tx) =>
          tx.regressionCase.createMany({ data: rows.map((r) => ({ ...r, checkId })) }),
        );
    };
    for (const [i, step] of steps.entries()) {
      hooks.signal.throwIfAborted();
      report(i, `flagged case ${i + 1}/${steps.length}`);
      if (done.has(step.id)) continue;
      const c = await flaggedCase(db, step, built.buffer, settings);
      if (!c) continue;
      const p = await built.model.predict(c.input, { signal: hooks.signal });
      const predicted = { nextState: p.next.text, reward: p.reward, done: p.done };
      const verdict = judgeCase(predicted, c.expected, {
        instruction: c.input.task.instruction,
        state: c.input.state.text,
        action: c.input.action,
        history: c.input.history.map((s) => s.action),
      });
      pending.push({
        stepId: c.stepId,
        source: "flagged",
        expected: { state: c.input.state.text, action: c.input.action, ...c.expected },
        predicted: { ...predicted, reasoning: p.reasoning, valid: p.valid, f1: verdict.f1, ...errorOf(p) },
        nextStateOk: verdict.nextStateOk,
        rewardOk: verdict.rewardOk,
        doneOk: verdict.doneOk,
      });
      if (pending.length >= BATCH) await flush();
    }
    await flush();
    const heldOut = await heldOutCases(db, scope.domain, scope.heldOut, built, settings, {
      signal: hooks.signal,
      onProgress: (n) => report(steps.length + n, `held-out transition ${n}/${scope.heldOut}`),
    });
    const flagged = await db.regressionCase.findMany({
      where: { checkId, source: "flagged" },
      select: { nextStateOk: true, rewardOk: true, doneOk: true },
    });
    const fidelity = {
      flagged: {
        cases: flagged.length,
        right: flagged.filter(isRight).length,
        nextState: flagged.filter((c) => c.nextStateOk).length,
        reward: flagged.filter((c) => c.rewardOk).length,
        done: flagged.filter((c) => c.doneOk).length,
      },
      heldOut: heldOut
        ? { ...heldOut.report, right: heldOut.cases.filter((c) => isRight(c.verdict)).length }
        : null,
    };
    await fenced(db, hooks.fence, async (tx) => {
      await tx.regressionCase.deleteMany({ where: { checkId, source: "held-out" } });
      if (heldOut)
        await tx.regressionCase.createMany({
          data: heldOut.cases.map((c) => ({
            checkId,
            stepId: c.stepId,
            source: "held-out",
            expected: { state: c.state, action: c.action, ...c.expected },
            predicted: { ...c.predicted, f1: c.verdict.f1 },
            nextStateOk: c.verdict.nextStateOk,
            rewardOk: c.verdict.rewardOk,
            doneOk: c.verdict.doneOk,
          })),
        });
      await tx.regressionCheck.update({
        where: { id: checkId },
        data: { status: "succeeded", fidelity, finishedAt: new Date() },
      });
    });
    hooks.progress(1, `${fidelity.flagged.right}/${fidelity.flagged.cases} flagged cases right`);
    return { checkId, ...fidelity.flagged };
  } catch (error) {
    const reason = hooks.signal.aborted ? hooks.signal.reason : undefined;
    // A worker that stops hands the check back to the queue; the next one goes on with it.
    const data =
      reason instanceof JobCancelled
        ? { status: "cancelled", finishedAt: new Date() }
        : reason instanceof WorkerStopping
          ? { status: "queued" }
          : { status: "failed" };
    await db.regressionCheck
      .updateMany({ where: { id: checkId, status: "running" }, data })
      .catch(() => undefined);
    throw error;
  }
}

function errorOf(p: { error?: string }) {
  return p.error !== undefined ? { error: p.error } : {};
}
