import { isRealDomainName } from "../envs/names";
/**
 * The methods table: what each training method does, in one place. The runner, its dependencies, the launch
 * form, the runs router, the CLI, the presets and the run's progress all read it (methods.test.ts pins them to
 * it); nothing else may decide by comparing a method's name. ARCHITECTURE.md "Where each rule lives".
 */

/** The RL algorithms a run can train with. */
export const RL_ALGORITHMS = ["grpo", "ppo"] as const;
export type RlAlgorithm = (typeof RL_ALGORITHMS)[number];

/** Where the policy learns during a phase. */
export type Phase = "synthetic" | "real";

/**
 * When a phase ends: after `iterations` iterations, when the real budget is spent, or at whichever comes first.
 * An iteration-bound synthetic phase also ends once it reaches `syntheticTransitions`, when that is set.
 */
export type PhaseEnd = "iterations" | "budget" | "budget-or-iterations";

export interface PhaseSpec {
  phase: Phase;
  until: PhaseEnd;
}

export interface MethodSpec {
  /** Short name for tables, lists and charts. */
  label: string;
  /** The launch form's option text. */
  description: string;
  /** Where the policy learns, in order. None: the policy is only evaluated (after cloning, if any). */
  phases: readonly PhaseSpec[];
  /** Behaviour cloning on expert demonstrations: the method itself, only as a warm start, or never. */
  cloning: "always" | "warm-start" | "never";
  /**
   * Whether curriculum variations are written when the config does not say (`curriculum.taskGeneration`). The
   * paper's real-env baselines train on the task set as it is; DreamGym's curriculum writes variations.
   */
  taskGenerationByDefault: boolean;
}

export const METHODS = {
  dreamgym: {
    label: "DreamGym",
    description: "DreamGym (synthetic only)",
    phases: [{ phase: "synthetic", until: "iterations" }],
    cloning: "warm-start",
    taskGenerationByDefault: true,
  },
  "dreamgym-s2r": {
    label: "DreamGym-S2R",
    description: "DreamGym-S2R (synthetic, then real)",
    phases: [
      { phase: "synthetic", until: "iterations" },
      { phase: "real", until: "budget" },
    ],
    cloning: "warm-start",
    taskGenerationByDefault: true,
  },
  real: {
    label: "Real-env",
    description: "Real-env RL",
    phases: [{ phase: "real", until: "budget-or-iterations" }],
    cloning: "warm-start",
    taskGenerationByDefault: false,
  },
  bc: {
    label: "Behaviour cloning",
    description: "Behaviour cloning",
    phases: [],
    cloning: "always",
    taskGenerationByDefault: false,
  },
  untrained: {
    label: "Untrained",
    description: "Untrained policy",
    phases: [],
    cloning: "never",
    taskGenerationByDefault: false,
  },
} as const satisfies Record<string, MethodSpec>;

export type RunMethod = keyof typeof METHODS;
export const RUN_METHODS = Object.keys(METHODS) as [RunMethod, ...RunMethod[]];

export function isRunMethod(name: string): name is RunMethod {
  return Object.hasOwn(METHODS, name);
}

export function methodSpec(method: RunMethod): MethodSpec {
  return METHODS[method];
}

/** The part of a run config the table's rules read (structural, so that half-filled form values fit too). */
export interface MethodSettings {
  method: RunMethod;
  algorithm: RlAlgorithm;
  warmStart: "none" | "bc";
  iterations: number;
  realTransitions: number;
  /** 0: no synthetic budget. */
  syntheticTransitions: number;
  curriculum: { taskGeneration?: boolean | undefined };
  /** The run's domain, for the settings only an imported one reads. */
  domain?: string;
}

export function isRl(method: RunMethod): boolean {
  return METHODS[method].phases.length > 0;
}

export function hasPhase(method: RunMethod, phase: Phase): boolean {
  return METHODS[method].phases.some((p) => p.phase === phase);
}

export function taskGeneration(config: Pick<MethodSettings, "method" | "curriculum">): boolean {
  return isRl(config.method)
    ? (config.curriculum.taskGeneration ?? METHODS[config.method].taskGenerationByDefault)
    : false;
}

export function clones(config: Pick<MethodSettings, "method" | "warmStart">): boolean {
  const { cloning } = METHODS[config.method];
  return cloning === "always" || (cloning === "warm-start" && config.warmStart === "bc");
}

/** The optimiser a run's policy is trained with, as stored on the run row. */
export function trainedWith(
  config: Pick<MethodSettings, "method" | "algorithm">,
): "grpo" | "ppo" | "bc" | "none" {
  if (isRl(config.method)) return config.algorithm;
  return METHODS[config.method].cloning === "always" ? "bc" : "none";
}

/** What a run has done so far: its finished iterations and the transitions it trained on. */
export interface RunCounters {
  iterations: number;
  realTransitions: number;
  syntheticTransitions?: number;
}

function syntheticBudget(spec: PhaseSpec, config: MethodSettings): number | undefined {
  return spec.phase === "synthetic" && config.syntheticTransitions > 0
    ? config.syntheticTransitions
    : undefined;
}

/** Whether a phase still has work, given the counters (the runner loops while this holds). */
export function phaseContinues(spec: PhaseSpec, config: MethodSettings, done: RunCounters): boolean {
  const underCap = done.iterations < config.iterations;
  const underBudget = done.realTransitions < config.realTransitions;
  const synthetic = syntheticBudget(spec, config);
  if (spec.until === "iterations")
    return underCap && (synthetic === undefined || (done.syntheticTransitions ?? 0) < synthetic);
  if (spec.until === "budget") return underBudget;
  return underCap && underBudget;
}

/** How far a phase is, 0..1: by its iterations, its synthetic budget or its real budget, as it ends. */
export function phaseFraction(spec: PhaseSpec, config: MethodSettings, done: RunCounters): number {
  const byIterations = Math.min(1, done.iterations / Math.max(1, config.iterations));
  const byBudget = Math.min(1, done.realTransitions / Math.max(1, config.realTransitions));
  const synthetic = syntheticBudget(spec, config);
  if (spec.until === "iterations")
    return synthetic === undefined
      ? byIterations
      : Math.max(byIterations, Math.min(1, (done.syntheticTransitions ?? 0) / synthetic));
  if (spec.until === "budget") return byBudget;
  return Math.max(byIterations, byBudget);
}

/**
 * How far a run is, 0..1, each phase weighing the same: a budget-bound phase by the real transitions spent, an
 * iteration-bound one by its iterations. Methods without phases report 0 until they finish.
 */
export function runProgress(config: MethodSettings, done: RunCounters): number {
  const { phases } = METHODS[config.method];
  if (phases.length === 0) return 0;
  const total = phases.reduce((sum, spec) => sum + phaseFraction(spec, config, done), 0);
  return total / phases.length;
}

/** The iterations a run will make, when the config alone says (every phase iteration-bound); else null. */
export function plannedIterations(config: MethodSettings): number | null {
  const { phases } = METHODS[config.method];
  if (phases.length === 0 || phases.some((p) => p.until !== "iterations" || syntheticBudget(p, config)))
    return null;
  return config.iterations;
}

/**
 * Which settings a method reads. Every RunConfig field names one of these (the form dims the others, the run
 * page leaves them out).
 */
export type SettingUse =
  | "always"
  | "rl"
  | "synthetic"
  | "real-budget"
  | "warm-start"
  | "cloning"
  | "grpo"
  | "ppo"
  | "task-generation-switch"
  | "task-generation"
  /** A real phase after a synthetic one (DreamGym-S2R). */
  | "sim-to-real"
  /** A domain that exists only as imported logs. */
  | "imported";

export function usesSetting(config: MethodSettings, use: SettingUse): boolean {
  switch (use) {
    case "always":
      return true;
    case "rl":
    case "task-generation-switch":
      return isRl(config.method);
    case "synthetic":
      return hasPhase(config.method, "synthetic");
    case "real-budget":
      return hasPhase(config.method, "real");
    case "warm-start":
      return METHODS[config.method].cloning === "warm-start";
    case "cloning":
      return clones(config);
    case "grpo":
    case "ppo":
      return isRl(config.method) && config.algorithm === use;
    case "task-generation":
      return taskGeneration(config);
    case "sim-to-real":
      return hasPhase(config.method, "synthetic") && hasPhase(config.method, "real");
    case "imported":
      return config.domain !== undefined && !isRealDomainName(config.domain);
  }
}

/** The label of a stored method name; a name the table does not know (an older run's) shows as it is. */
export function methodLabelOf(name: string): string {
  return isRunMethod(name) ? METHODS[name].label : name;
}
