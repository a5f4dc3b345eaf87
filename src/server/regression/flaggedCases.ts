import { exactMatch } from "@/core/experience/fidelity";
import type { ExperienceInput, ExperienceSettings } from "@/core/experience/types";
import type { ReplayBuffer } from "@/core/replay/buffer";
import type { Db } from "../db";
import { stepInput, TRAJECTORY_WITH_STEPS } from "../experience/stepContext";
import type { CaseAnswer } from "./judge";

/** A flagged step as a regression case: what the model is asked, and the real environment's answer to it. */
export interface RegressionCaseInput {
  stepId: string;
  input: ExperienceInput;
  expected: CaseAnswer;
}

/** The flagged synthetic steps of a domain that have the real environment's answer (the rest cannot be judged). */
export function flaggedCaseSteps(db: Db, domain: string) {
  return db.step.findMany({
    where: {
      flagged: true,
      realNextState: { not: null },
      realReward: { not: null },
      trajectory: { domain, source: "synthetic" },
    },
    orderBy: [{ flaggedAt: "asc" }, { id: "asc" }],
    select: { id: true, trajectoryId: true, index: true },
  });
}

/**
 * The case of one flagged step, asked as the fidelity benchmark asks (teacher-forced): the real answer is the
 * real environment replaying the episode's actions, so where the episode had already left the real path the
 * model is shown the real state the actions led to (the step before's real next state) rather than its own
 * earlier prediction, which no version could be expected to continue into the real answer. History and
 * demonstrations are as the version's settings ask.
 */
export async function flaggedCase(
  db: Db,
  step: { id: string; trajectoryId: string; index: number },
  buffer: ReplayBuffer | undefined,
  settings: ExperienceSettings,
): Promise<RegressionCaseInput | null> {
  const trajectory = await db.trajectory.findUnique({
    where: { id: step.trajectoryId },
    ...TRAJECTORY_WITH_STEPS,
  });
  const position = trajectory?.steps.findIndex((s) => s.id === step.id) ?? -1;
  if (!trajectory || position < 0) return null;
  const row = trajectory.steps[position]!;
  if (row.realNextState === null || row.realReward === null) return null;
  const input = await stepInput(trajectory, position, buffer, settings);
  const realState = position > 0 ? trajectory.steps[position - 1]!.realNextState : null;
  if (realState !== null && !exactMatch(realState, row.state)) input.state = { text: realState };
  return {
    stepId: step.id,
    input,
    expected: { nextState: row.realNextState, reward: row.realReward, done: row.realDone ?? row.done },
  };
}
