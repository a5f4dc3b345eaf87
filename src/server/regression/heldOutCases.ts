import type { FidelityReport } from "@/core/experience/fidelity";
import { measureFidelity } from "@/core/experience/fidelityRun";
import type { ExperienceSettings } from "@/core/experience/types";
import { heldOutTask, VALIDATION_OFFSET } from "@/core/train/heldOut";
import type { Db } from "../db";
import { loadRealDomain } from "../remoteEnv/load";
import { remoteSpec } from "../remoteEnv/registry";
import { type CaseAnswer, type CaseVerdict, judgeCase } from "./judge";
import type { VersionModel } from "./versionModel";

/** The behaviour policy of the held-out transitions: fixed, so every version is asked the same transitions. */
const BEHAVIOUR = { epsilon: 0.3, seed: 0 } as const;

export interface HeldOutCase {
  stepId: string;
  state: string;
  action: string;
  expected: CaseAnswer;
  predicted: CaseAnswer & { reasoning: string; valid: boolean; error?: string };
  verdict: CaseVerdict;
}

export interface HeldOutResult {
  report: FidelityReport;
  cases: HeldOutCase[];
}

/**
 * The version's fidelity on held-out transitions of the domain's real environment, teacher-forced as the
 * fidelity benchmark measures it (core/experience/fidelityRun), each transition kept as a case. The tasks are the
 * validation ones (core/train/heldOut): comparing versions is choosing settings, which is never done on the test
 * tasks. Null where the domain has no real environment (an imported one).
 */
export async function heldOutCases(
  db: Db,
  domain: string,
  transitions: number,
  { model, buffer }: VersionModel,
  settings: ExperienceSettings,
  hooks: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void },
): Promise<HeldOutResult | null> {
  if (transitions === 0) return null;
  const tasks = Array.from({ length: transitions }, (_, i) => ({
    split: "train" as const,
    index: VALIDATION_OFFSET + i,
  }));
  const remote = await remoteSpec(db, domain);
  const reachable = remote ? tasks.filter((a) => a.index < remote.tasks.train.count) : tasks;
  const real = await loadRealDomain(db, domain, reachable);
  if (!real) return null;
  const cases: HeldOutCase[] = [];
  const { report } = await measureFidelity(real, model, buffer, settings, {
    transitions,
    task: (i) => {
      if (i >= reachable.length)
        throw new Error(
          `domain "${domain}" has too few validation tasks for ${transitions} held-out transitions`,
        );
      return heldOutTask(real, "validation", i);
    },
    ...BEHAVIOUR,
    ...(hooks.signal ? { signal: hooks.signal } : {}),
    ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
    onPrediction: (input, prediction, answer) => {
      const expected = { nextState: answer.observation.text, reward: answer.reward, done: answer.done };
      const predicted = { nextState: prediction.next.text, reward: prediction.reward, done: prediction.done };
      cases.push({
        // The n-th transition of the fixed behaviour policy: the same transition for every version.
        stepId: `held-out:${domain}:${cases.length}`,
        state: input.state.text,
        action: input.action,
        expected,
        predicted: {
          ...predicted,
          reasoning: prediction.reasoning,
          valid: prediction.valid,
          ...(prediction.error !== undefined ? { error: prediction.error } : {}),
        },
        verdict: judgeCase(predicted, expected, {
          instruction: input.task.instruction,
          state: input.state.text,
          action: input.action,
          history: input.history.map((s) => s.action),
        }),
      });
    },
  });
  return { report, cases };
}
