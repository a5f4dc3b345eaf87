import { buildExperiencePrompt, EXPERIENCE_PROMPT_VERSION } from "@/core/experience/prompt";
import type { ExperienceSettings } from "@/core/experience/types";
import type { ReplayBuffer } from "@/core/replay/buffer";
import { REAL_ENV_SOURCES } from "@/core/types";
import type { AnnotationStatus } from "@/shared/enums";
import type { Db } from "../db";
import { stepInput, TRAJECTORY_WITH_STEPS } from "./stepContext";

export interface SftExportOptions {
  domain?: string;
  /** Which reviews to include; rejected traces are never exported. */
  statuses: Exclude<AnnotationStatus, "rejected">[];
  teacher?: string;
  settings: ExperienceSettings;
}

/** The prompts' shape for an export when nothing else is asked: the experience model's defaults. */
export const SFT_EXPORT_SETTINGS: ExperienceSettings = {
  k: 4,
  historyWindow: 4,
  reasoning: true,
  sources: ["offline"],
};

export interface SftRecord {
  messages: { role: "system" | "user" | "assistant"; content: string }[];
  metadata: {
    stepId: string;
    trajectoryId: string;
    domain: string;
    teacher: string;
    status: string;
    corrected: boolean;
    promptVersion: string;
  };
}

type Filter = Pick<SftExportOptions, "domain" | "statuses" | "teacher">;

function annotationsOf(options: Filter) {
  return { status: { in: options.statuses }, ...(options.teacher ? { teacher: options.teacher } : {}) };
}

/** Only transitions the real environment produced are ground truth to learn from. */
function trajectoriesOf(options: Filter) {
  return { ...(options.domain ? { domain: options.domain } : {}), source: { in: [...REAL_ENV_SOURCES] } };
}

/** How many records sftRecords will write for these options: one per step with a matching trace. */
export function countSftRecords(db: Db, options: Filter): Promise<number> {
  if (options.statuses.length === 0) return Promise.resolve(0);
  return db.step.count({
    where: { trajectory: trajectoriesOf(options), annotations: { some: annotationsOf(options) } },
  });
}

/**
 * The experience model's SFT dataset in chat format: the prompt it would be given, and as the target its
 * reasoning then the real next state and outcome (the paper's joint objective). An annotator's correction
 * replaces the teacher's text where the trace was edited; an accepted trace is the teacher's own.
 */
export async function* sftRecords(
  db: Db,
  buffer: ReplayBuffer | undefined,
  options: SftExportOptions,
): AsyncGenerator<SftRecord> {
  const annotationWhere = annotationsOf(options);
  let cursor: string | undefined;
  for (;;) {
    const batch = await db.trajectory.findMany({
      where: { ...trajectoriesOf(options), steps: { some: { annotations: { some: annotationWhere } } } },
      orderBy: { id: "asc" },
      take: 50,
      ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
      ...TRAJECTORY_WITH_STEPS,
    });
    if (batch.length === 0) return;
    cursor = batch[batch.length - 1]!.id;
    const annotations = await db.annotation.findMany({
      where: { ...annotationWhere, step: { trajectoryId: { in: batch.map((t) => t.id) } } },
      orderBy: [{ stepId: "asc" }, { updatedAt: "desc" }],
    });
    const byStep = new Map<string, (typeof annotations)[number]>();
    for (const a of annotations) if (!byStep.has(a.stepId)) byStep.set(a.stepId, a);
    for (const trajectory of batch) {
      for (const [position, step] of trajectory.steps.entries()) {
        const annotation = byStep.get(step.id);
        if (!annotation) continue;
        const input = await stepInput(trajectory, position, buffer, options.settings);
        // An edited trace is the annotator's whole prediction: each corrected field in place of the recorded one.
        const edited = annotation.status === "edited";
        const fix = edited ? annotation : null;
        const corrected =
          edited &&
          [fix?.correction, fix?.correctedNextState, fix?.correctedReward, fix?.correctedDone].some(
            (v) => v !== null && v !== undefined,
          );
        const target = {
          reasoning: fix?.correction ?? annotation.teacherText,
          next_state: fix?.correctedNextState ?? step.nextState,
          reward: fix?.correctedReward ?? step.reward,
          done: fix?.correctedDone ?? step.done,
          success: step.success,
          valid: step.valid,
        };
        yield {
          messages: [
            ...buildExperiencePrompt(input, options.settings),
            { role: "assistant", content: JSON.stringify(target) },
          ],
          metadata: {
            stepId: step.id,
            trajectoryId: trajectory.id,
            domain: trajectory.domain,
            teacher: annotation.teacher,
            status: annotation.status,
            corrected,
            promptVersion: EXPERIENCE_PROMPT_VERSION,
          },
        };
      }
    }
  }
}
