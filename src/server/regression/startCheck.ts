import { EXPERIENCE_PROMPT_VERSION } from "@/core/experience/prompt";
import { config } from "@/env";
import type { Db } from "../db";
import { hasOpenaiEndpoint } from "../experience/backends";
import { addJob, wakeWorkers } from "../queue/queue";
import { type CheckScope, type ExperienceVersion, storedCheckModel, versionLabel } from "./version";

/** Why a check cannot start: said to the researcher as it is. */
export class CheckRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CheckRefused";
  }
}

/** Queues a regression check of one version for the worker, and returns the check. */
export async function startCheck(
  db: Db,
  version: ExperienceVersion,
  scope: CheckScope,
  createdBy: string | null,
) {
  const offline = await db.trajectory.count({ where: { domain: scope.domain, source: "offline" } });
  if (offline === 0)
    throw new CheckRefused(
      `domain "${scope.domain}" has no offline transitions for the experience model to learn or retrieve from`,
    );
  if (version.backend === "openai" && !version.baseURL && !hasOpenaiEndpoint(config()))
    throw new CheckRefused("no endpoint is configured (openai.baseURL): give the endpoint's URL");
  const model = storedCheckModel(version, scope);
  // The check, its job and the job's id on it in one transaction: a failure leaves no check waiting for no job.
  const check = await db.$transaction(async (tx) => {
    const created = await tx.regressionCheck.create({
      data: { label: versionLabel(model), model, createdBy },
    });
    const job = await addJob(tx, "regression", { checkId: created.id });
    return tx.regressionCheck.update({ where: { id: created.id }, data: { jobId: job.id } });
  });
  await wakeWorkers(db, "regression");
  return check;
}

/** What the form offers: the domains with flagged cases, and the endpoint the app is configured with. */
export async function checkOptions(db: Db) {
  const flagged = await db.step.findMany({
    where: { flagged: true, realNextState: { not: null }, trajectory: { source: "synthetic" } },
    select: { trajectory: { select: { domain: true } } },
  });
  const counts = new Map<string, number>();
  for (const s of flagged) counts.set(s.trajectory.domain, (counts.get(s.trajectory.domain) ?? 0) + 1);
  const app = config();
  return {
    domains: [...counts].map(([domain, cases]) => ({ domain, cases })).sort((a, b) => b.cases - a.cases),
    endpoint: {
      configured: hasOpenaiEndpoint(app),
      model: app.openai.models.experience,
    },
    promptVersion: EXPERIENCE_PROMPT_VERSION,
  };
}
