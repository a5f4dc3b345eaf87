import type { ImportedDomain } from "../envs/imported/importedDomain";
import type { ExperienceModel, ExperienceSettings } from "../experience/types";
import type { ReplayBuffer } from "../replay/buffer";
import { type Calibration, type OutcomeCalibration, outcomeCalibration } from "./calibration";
import { type HeldOutFidelity, heldOutFidelity } from "./heldOutFidelity";
import { type TrustVerdict, trustVerdict } from "./verdict";

/**
 * How far an imported domain's proxies can be trusted, from its held-out logs alone. Plain JSON (a run keeps it
 * with its metrics):
 * - fidelity: the experience model teacher-forced on held-out logged steps (heldOutFidelity.ts);
 * - calibration: held-out logs' actions replayed closed-loop, the model's outcomes against the logged ones
 *   (calibration.ts);
 * - byPolicy: the same per logged policy label, with each one's logged success rate (`base`);
 * - verdict: trustworthy or not, and why, in sentences (verdict.ts).
 */
export interface TrustReport {
  fidelity: HeldOutFidelity;
  calibration: Calibration;
  byPolicy: Record<string, OutcomeCalibration>;
  verdict: TrustVerdict;
}

export interface TrustOptions {
  /** Held-out logged steps scored at most (heldOutFidelity.ts's default when absent). */
  steps?: number;
  /** Held-out logs replayed at most (calibration.ts's default when absent). */
  episodes?: number;
  concurrency?: number;
  signal?: AbortSignal;
  /** The untrained policy's synthetic success on the held-out tasks, when the run measured it. */
  untrainedSyntheticSuccess?: number;
  /** The trained policy's synthetic success on the held-out tasks, when the run measured it. */
  syntheticSuccess?: number;
}

export async function trustReport(
  domain: ImportedDomain,
  model: ExperienceModel,
  buffer: ReplayBuffer | undefined,
  settings: ExperienceSettings,
  options: TrustOptions = {},
): Promise<TrustReport> {
  const { steps, episodes, untrainedSyntheticSuccess, syntheticSuccess, ...run } = options;
  const fidelity = await heldOutFidelity(domain, model, buffer, settings, {
    ...run,
    ...(steps !== undefined ? { steps } : {}),
  });
  const { overall: calibration, byPolicy } = await outcomeCalibration(domain, model, buffer, settings, {
    ...run,
    ...(episodes !== undefined ? { episodes } : {}),
  });
  const verdict = trustVerdict({
    fidelity,
    calibration,
    byPolicy,
    ...(untrainedSyntheticSuccess !== undefined ? { untrainedSyntheticSuccess } : {}),
    ...(syntheticSuccess !== undefined ? { syntheticSuccess } : {}),
  });
  return { fidelity, calibration, byPolicy, verdict };
}
