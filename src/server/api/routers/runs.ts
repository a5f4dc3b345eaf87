import { z } from "zod";
import { isRealDomainName } from "@/core/envs/names";
import { RunConfig } from "@/core/train/config";
import { plannedIterations, usesSetting } from "@/core/train/methods";
import { config as appConfig } from "@/env";
import { ACTIVE_STATUSES } from "@/shared/enums";
import { type DomainInfo, domainProblem, listDomains } from "../../domains/domains";
import { hasOpenaiEndpoint } from "../../experience/backends";
import { cancel, enqueueWith } from "../../queue/queue";
import { deleteRun, previewRunDeletion } from "../../retention/deleteRun";
import { sharedLanceRows } from "../../retention/lanceRows";
import { createRun } from "../../train/runStore";
import { retentionAsTrpc } from "../retentionErrors";
import { allowedTo, createTRPCRouter, readProcedure, TRPCError } from "../trpc";

const ProxyFigures = z.object({
  confidence: z.number().optional(),
  actionAgreement: z.number().optional(),
  agreementSteps: z.number(),
  judgeSuccess: z.number().optional(),
  judged: z.number().optional(),
  judgeFailures: z.number().optional(),
});
const Evaluation = z.object({
  successRate: z.number(),
  meanReward: z.number(),
  episodes: z.number(),
  proxy: ProxyFigures.optional(),
});
const Summary = z.object({
  untrained: Evaluation.optional(),
  final: Evaluation.optional(),
  finalSimulated: Evaluation.optional(),
});

/** An imported domain's evaluation: its proxies, never real success (core/train/proxyEvaluation.ts). */
function proxyFigures(e: z.infer<typeof Evaluation> | undefined) {
  if (!e?.proxy) return null;
  return {
    syntheticSuccess: e.successRate,
    confidence: e.proxy.confidence ?? null,
    actionAgreement: e.proxy.actionAgreement ?? null,
    /** The LLM judge's verdicts (evaluation.judge), with the episodes it could not judge; null without one. */
    judgeSuccess: e.proxy.judgeSuccess ?? null,
    judgeFailures: e.proxy.judgeFailures ?? null,
  };
}

/**
 * The test figures a finished run stored in its result, or nulls while it has none. A run in an imported domain
 * has no real figures: its proxies are given apart (`proxy`), so that nothing shows them as real success.
 */
function evaluations(result: unknown) {
  const parsed = Summary.safeParse(result ?? {});
  const data = parsed.success ? parsed.data : {};
  const proxied = data.final?.proxy !== undefined;
  const real = (e: z.infer<typeof Evaluation> | undefined) => (proxied ? null : (e?.successRate ?? null));
  return {
    finalRealSuccess: real(data.final),
    untrainedRealSuccess: real(data.untrained),
    /** The final policy on the same test tasks in the synthetic environment: the sim-to-real gap's other side. */
    finalSimSuccess: proxied ? null : (data.finalSimulated?.successRate ?? null),
    proxy: proxied ? { final: proxyFigures(data.final), untrained: proxyFigures(data.untrained) } : null,
  };
}

/**
 * What a run's config fixes in advance, for the UI's progress: the iterations ("3 of 10"), null when the method
 * does not iterate or a real budget decides (the methods table); and the real-transition budget, for methods with
 * a real phase ("640 / 1,000 real transitions"), else null. Both null when the stored config is unreadable.
 */
function plan(config: unknown): { plannedIterations: number | null; realBudget: number | null } {
  const parsed = RunConfig.safeParse(config);
  if (!parsed.success) return { plannedIterations: null, realBudget: null };
  return {
    plannedIterations: plannedIterations(parsed.data),
    realBudget: usesSetting(parsed.data, "real-budget") ? parsed.data.realTransitions : null,
  };
}

/** An external run's trainer decides how long it goes: nothing is planned in advance. */
function planOf(run: { kind?: string; config: unknown }) {
  return run.kind === "external" ? { plannedIterations: null, realBudget: null } : plan(run.config);
}

const RunId = z.string().min(1).max(100);

/** A run's tags as stored (Json): the strings of an array, anything else none. */
function tagsOf(stored: unknown): string[] {
  return Array.isArray(stored) ? stored.filter((t): t is string => typeof t === "string") : [];
}

/** A run's notes and labels, as its page edits them; tags are trimmed and kept once each, in the order given. */
const RunNotes = z.object({
  id: RunId,
  notes: z.string().max(20_000, "Notes take at most 20,000 characters").optional(),
  tags: z
    .array(
      z
        .string()
        .trim()
        .min(1, "A tag cannot be blank")
        .max(40, "A tag takes at most 40 characters")
        .regex(/^[^,\n]+$/, "A tag cannot hold a comma or a line break"),
    )
    .max(20, "A run takes at most 20 tags")
    .transform((tags) => [...new Set(tags)])
    .optional(),
});

/**
 * Whether a run's domain is built in, remote or imported, which decides whether its figures are real or proxies;
 * null when no domain has the name any more (a removed remote domain's runs stay).
 */
async function domainKind(
  db: Parameters<typeof createRun>[0],
  domain: string,
): Promise<DomainInfo["kind"] | null> {
  if (isRealDomainName(domain)) return "built-in";
  const [listed] = await listDomains(db, domain);
  return listed?.kind ?? null;
}

async function activeTrainJobs(db: Parameters<typeof createRun>[0], runId: string) {
  const jobs = await db.job.findMany({ where: { type: "train", status: { in: [...ACTIVE_STATUSES] } } });
  return jobs.filter((j) => (j.payload as { runId?: string } | null)?.runId === runId);
}

export const runsRouter = createTRPCRouter({
  /** Validates the config (field-level errors for the form) and queues the run for the worker. */
  create: allowedTo({ run: ["launch"] })
    .input(RunConfig)
    .mutation(async ({ ctx, input }) => {
      // An unknown domain, or an imported one the method cannot train in, is refused now, not by the worker later.
      const problem = await domainProblem(ctx.db, input);
      if (problem) throw new TRPCError({ code: "BAD_REQUEST", message: problem });
      if (input.evaluation.judge && !hasOpenaiEndpoint(appConfig()))
        throw new TRPCError({
          code: "BAD_REQUEST",
          message:
            "the LLM judge needs an OpenAI-compatible endpoint: set OPENAI_BASE_URL (and OPENAI_API_KEY if it asks for one), or turn the judge off",
        });
      const run = await createRun(ctx.db, input);
      await ctx.db.run.update({ where: { id: run.runId }, data: { createdBy: ctx.user.email } });
      return run;
    }),

  list: readProcedure
    .input(
      z
        .object({ domain: z.string().optional(), limit: z.number().int().min(1).max(500).default(100) })
        .prefault({}),
    )
    .query(async ({ ctx, input }) => {
      const runs = await ctx.db.run.findMany({
        where: input.domain ? { domain: input.domain } : {},
        orderBy: { createdAt: "desc" },
        take: input.limit,
        select: {
          id: true,
          name: true,
          kind: true,
          method: true,
          domain: true,
          algorithm: true,
          status: true,
          progress: true,
          iteration: true,
          error: true,
          realTransitions: true,
          syntheticTransitions: true,
          createdAt: true,
          startedAt: true,
          finishedAt: true,
          result: true,
          config: true,
          trust: true,
          notes: true,
          tags: true,
          createdBy: true,
        },
      });
      return runs.map(({ config, ...run }) => ({
        ...run,
        tags: tagsOf(run.tags),
        ...evaluations(run.result),
        ...planOf({ kind: run.kind, config }),
      }));
    }),

  get: readProcedure.input(z.object({ id: z.string() })).query(async ({ ctx, input }) => {
    const run = await ctx.db.run.findUnique({
      where: { id: input.id },
      include: { metrics: { orderBy: { iteration: "asc" } } },
    });
    if (!run) throw new TRPCError({ code: "NOT_FOUND", message: `No run with id ${input.id}` });
    return {
      ...run,
      tags: tagsOf(run.tags),
      ...evaluations(run.result),
      ...planOf(run),
      domainKind: await domainKind(ctx.db, run.domain),
    };
  }),

  /** Sets a run's notes and/or tags (what is not sent stays as it was). */
  annotate: allowedTo({ run: ["launch"] })
    .input(RunNotes)
    .mutation(async ({ ctx, input }) => {
      const found = await ctx.db.run.findUnique({ where: { id: input.id }, select: { id: true } });
      if (!found) throw new TRPCError({ code: "NOT_FOUND", message: `No run with id ${input.id}` });
      const run = await ctx.db.run.update({
        where: { id: input.id },
        data: {
          ...(input.notes !== undefined ? { notes: input.notes.trim() === "" ? null : input.notes } : {}),
          ...(input.tags !== undefined ? { tags: input.tags } : {}),
        },
        select: { id: true, notes: true, tags: true },
      });
      return { ...run, tags: tagsOf(run.tags) };
    }),

  /** Several runs' per-iteration curves, in the order asked, for one chart. */
  compare: readProcedure
    .input(
      z.object({
        ids: z
          .array(z.string().min(1))
          .min(1, "Pick at least one run to compare")
          .max(12, "Compare at most 12 runs at once"),
      }),
    )
    .query(async ({ ctx, input }) => {
      const ids = [...new Set(input.ids)];
      const runs = await ctx.db.run.findMany({
        where: { id: { in: ids } },
        select: {
          id: true,
          name: true,
          method: true,
          domain: true,
          algorithm: true,
          status: true,
          progress: true,
          iteration: true,
          realTransitions: true,
          syntheticTransitions: true,
          result: true,
          config: true,
          kind: true,
          createdAt: true,
          startedAt: true,
          metrics: {
            orderBy: { iteration: "asc" },
            select: {
              iteration: true,
              syntheticSuccess: true,
              realSuccess: true,
              simSuccess: true,
              meanReward: true,
              realTransitions: true,
              syntheticTransitions: true,
              createdAt: true,
              extra: true,
            },
          },
        },
      });
      const missing = ids.filter((id) => !runs.some((r) => r.id === id));
      if (missing.length > 0)
        throw new TRPCError({ code: "NOT_FOUND", message: `No run with id ${missing.join(", ")}` });
      const byId = new Map(runs.map((r) => [r.id, r]));
      return ids.map((id) => {
        const { result, config, ...run } = byId.get(id)!;
        // The config goes along for the comparison's config diff.
        return { ...run, config, ...evaluations(result), ...planOf({ kind: run.kind, config }) };
      });
    }),

  /**
   * An external run's episodes still being played through the environment server, with their steps so far
   * (stored as they happen): what its trainer is doing now.
   */
  liveSessions: readProcedure.input(z.object({ id: RunId })).query(async ({ ctx, input }) => {
    const live = await ctx.db.trajectory.findMany({
      where: { runId: input.id, status: "live" },
      orderBy: { createdAt: "desc" },
      take: 200,
      select: {
        id: true,
        episodeId: true,
        taskId: true,
        source: true,
        iteration: true,
        createdAt: true,
        _count: { select: { steps: true } },
      },
    });
    return live.map(({ _count, ...t }) => ({ ...t, steps: _count.steps }));
  }),

  cancel: allowedTo({ run: ["cancel"] })
    .input(z.object({ id: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const run = await ctx.db.run.findUnique({ where: { id: input.id }, select: { kind: true } });
      // An external run has no job to stop: cancelling it marks it stopped, so that it can be deleted.
      if (run?.kind === "external") {
        await ctx.db.run.updateMany({
          where: { id: input.id, status: { in: [...ACTIVE_STATUSES] } },
          data: { status: "cancelled", finishedAt: new Date() },
        });
        return { cancelled: 0 };
      }
      const jobs = await activeTrainJobs(ctx.db, input.id);
      let stoppedNow = jobs.length === 0;
      // A queued job stops at once; a running one at its next heartbeat, and its worker then marks the run.
      for (const job of jobs) if ((await cancel(ctx.db, job.id)).status === "cancelled") stoppedNow = true;
      if (stoppedNow)
        await ctx.db.run.updateMany({
          where: { id: input.id, status: "queued" },
          data: { status: "cancelled", finishedAt: new Date() },
        });
      return { cancelled: jobs.length };
    }),

  /** Continues a failed or cancelled run from its last finished iteration. */
  resume: allowedTo({ run: ["resume"] })
    .input(z.object({ id: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const run = await ctx.db.run.findUnique({ where: { id: input.id } });
      if (!run) throw new TRPCError({ code: "NOT_FOUND", message: `No run with id ${input.id}` });
      if (run.kind === "external")
        throw new TRPCError({
          code: "BAD_REQUEST",
          message:
            "An external run is driven by its trainer through the environment server; it cannot be resumed here",
        });
      if (run.status === "succeeded")
        throw new TRPCError({
          code: "BAD_REQUEST",
          message: "This run has finished; launch a new one instead",
        });
      if ((await activeTrainJobs(ctx.db, input.id)).length > 0)
        throw new TRPCError({ code: "CONFLICT", message: "This run is already queued or running" });
      const { job } = await enqueueWith(ctx.db, "train", async (tx) => ({
        row: await tx.run.update({
          where: { id: input.id },
          data: { status: "queued", error: null, finishedAt: null },
        }),
        payload: { runId: input.id },
      }));
      return { jobId: job.id };
    }),

  /** What deleting the run would remove (for the confirmation), and why it cannot be deleted now, if it cannot. */
  deletePreview: readProcedure
    .input(z.object({ id: RunId }))
    .query(({ ctx, input }) => previewRunDeletion(ctx.db, input.id).catch(retentionAsTrpc)),

  /**
   * Deletes a finished, failed or cancelled run with everything of it, in the database and in LanceDB; a queued or
   * running one is refused (CONFLICT: cancel it first).
   */
  delete: allowedTo({ run: ["delete"] })
    .input(z.object({ id: RunId }))
    .mutation(({ ctx, input }) =>
      deleteRun(ctx.db, input.id, sharedLanceRows(ctx.db)).catch(retentionAsTrpc),
    ),
});
