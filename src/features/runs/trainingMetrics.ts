/**
 * The RL update's own figures, as TensorBoard's losses/* and charts/* panels show them: read from a metric's
 * extra, where the worker stores the update's statistics (`update`, core/rl/stats.ts UpdateStats and PPO's
 * CriticStats) and an external trainer its own (`trainer`, by whatever names it posts).
 */
export const TRAINING_COLUMNS = {
  policyLoss: { label: "policy loss", update: "policyLoss", trainer: ["policy_loss", "policyLoss", "loss"] },
  valueLoss: { label: "value loss", update: "valueLoss", trainer: ["value_loss", "valueLoss"] },
  approxKl: { label: "approx KL (old → new)", update: "approxKl", trainer: ["approx_kl", "approxKl", "kl"] },
  refKl: { label: "KL to reference", update: "refKl", trainer: ["ref_kl", "refKl"] },
  entropy: { label: "entropy", update: "entropy", trainer: ["entropy"] },
  clipFraction: {
    label: "clip fraction",
    update: "clipFraction",
    trainer: ["clip_fraction", "clipfrac", "clipFraction"],
  },
} as const;

export type TrainingColumn = keyof typeof TRAINING_COLUMNS;

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

function group(extra: unknown, name: string): Record<string, unknown> | null {
  const g = (extra as Record<string, unknown> | null)?.[name];
  return g !== null && typeof g === "object" && !Array.isArray(g) ? (g as Record<string, unknown>) : null;
}

/** One iteration's update figures as chart columns; null where the iteration has none (a BC run has no KL). */
export function trainingOfExtra(extra: unknown): Record<TrainingColumn, number | null> {
  const update = group(extra, "update");
  const trainer = group(extra, "trainer");
  const out = {} as Record<TrainingColumn, number | null>;
  for (const [column, source] of Object.entries(TRAINING_COLUMNS) as Array<
    [TrainingColumn, (typeof TRAINING_COLUMNS)[TrainingColumn]]
  >) {
    let value = num(update?.[source.update]);
    for (const name of source.trainer) if (value === null) value = num(trainer?.[name]);
    out[column] = value;
  }
  return out;
}

/** The four training panels: what each draws, and whether it is a rate. */
export const TRAINING_CHARTS: ReadonlyArray<{
  id: string;
  title: string;
  subtitle: string;
  columns: readonly TrainingColumn[];
  percent?: boolean;
}> = [
  {
    id: "loss",
    title: "Loss",
    subtitle: "mean over the update's minibatch steps",
    columns: ["policyLoss", "valueLoss"],
  },
  {
    id: "kl",
    title: "KL",
    subtitle: "policy change per update, and distance to the reference",
    columns: ["approxKl", "refKl"],
  },
  {
    id: "entropy",
    title: "Entropy",
    subtitle: "of the policy's choice among the candidates",
    columns: ["entropy"],
  },
  {
    id: "clip",
    title: "Clip fraction",
    subtitle: "share of decisions whose ratio was clipped",
    columns: ["clipFraction"],
    percent: true,
  },
];
