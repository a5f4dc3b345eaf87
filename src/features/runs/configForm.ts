import { REAL_DOMAIN_LABELS, REAL_DOMAIN_NAMES } from "@/core/envs/names";
import { RunConfig } from "@/core/train/config";
import { type HeldOutTasks, VALIDATION_OFFSET } from "@/core/train/heldOut";
import {
  isRunMethod,
  METHODS,
  type MethodSettings,
  RUN_METHODS,
  type SettingUse,
  usesSetting,
} from "@/core/train/methods";

/**
 * The launch form's model: every RunConfig setting as a field (by its dotted path), the form's values as text
 * and booleans (so a half-typed number is kept, and refused in plain words rather than silently fixed), and
 * the round trip to a RunConfig through the same schema the server parses with.
 */
export type FieldValue = string | boolean;
export type FormValues = Record<string, FieldValue>;
export type FieldErrors = Record<string, string>;

type Kind =
  /** optional: a blank field leaves the setting unset (its documented fallback), rather than an error. */
  | { type: "int" | "number"; min?: number; max?: number; step?: number; optional?: boolean }
  | { type: "bool" }
  | { type: "text" }
  | { type: "enum"; options: ReadonlyArray<{ value: string; label: string; disabled?: boolean }> };

export interface FieldDef {
  path: string;
  label: string;
  hint: string;
  section: Section;
  kind: Kind;
  /** Which methods read the setting: the methods table decides, given the rest of the form. */
  use: SettingUse;
}

export const SECTIONS = [
  "Run",
  "Policy optimisation",
  "GRPO",
  "PPO",
  "Behaviour cloning",
  "Experience model",
  "Curriculum",
  "Evaluation",
  // Beyond the paper: each off by default (RunConfig's `experimental`).
  "Experimental",
] as const;
export type Section = (typeof SECTIONS)[number];

const BACKEND = {
  type: "enum",
  options: [
    { value: "embedded", label: "embedded (offline)" },
    { value: "openai", label: "openai-compatible" },
  ],
} as const;

const int = (min: number, max?: number) =>
  ({ type: "int", min, ...(max === undefined ? {} : { max }) }) as const;
const num = (min: number, step: number, max?: number) =>
  ({ type: "number", min, step, ...(max === undefined ? {} : { max }) }) as const;
const BOOL = { type: "bool" } as const;

/** The clipped-update knobs GRPO and PPO share, for one algorithm's section. */
function clippedUpdateFields(algorithm: "grpo" | "ppo", section: Section): FieldDef[] {
  const fields: Omit<FieldDef, "section" | "use">[] = [
    {
      path: `${algorithm}.policyLoss`,
      label: "Policy loss",
      hint: "How the probability ratio is clipped: the same on both sides, or wider above",
      kind: {
        type: "enum",
        options: [
          { value: "clip", label: "clipped surrogate (PPO)" },
          { value: "clip-higher", label: "clip-higher (DAPO)" },
        ],
      },
    },
    {
      path: `${algorithm}.clipEpsilon`,
      label: "Clip ε",
      hint: "Clip range of the probability ratio (its lower side with clip-higher)",
      kind: num(0, 0.05),
    },
    {
      path: `${algorithm}.clipEpsilonHigh`,
      label: "Clip ε high",
      hint: "Upper clip range, read by clip-higher only (DAPO: 0.28)",
      kind: num(0, 0.01),
    },
    { path: `${algorithm}.epochs`, label: "Epochs", hint: "Passes over each batch", kind: int(1) },
    {
      path: `${algorithm}.minibatches`,
      label: "Minibatches",
      hint: "Per epoch; one Adam step each",
      kind: int(1),
    },
    {
      path: `${algorithm}.entropyCoef`,
      label: "Entropy coefficient",
      hint: "Weight of the entropy bonus",
      kind: num(0, 0.005),
    },
    {
      path: `${algorithm}.maxGradNorm`,
      label: "Max gradient norm",
      hint: "Global gradient-norm clip",
      kind: num(0, 0.1),
    },
  ];
  return fields.map((f) => ({ ...f, section, use: algorithm }));
}

export const FIELDS: readonly FieldDef[] = [
  {
    path: "name",
    label: "Name",
    hint: "Blank: domain, method and algorithm",
    section: "Run",
    kind: { type: "text" },
    use: "always",
  },
  {
    path: "method",
    label: "Method",
    hint: "Where the policy learns: synthetic experience, then real (S2R), or the real env only",
    section: "Run",
    kind: { type: "enum", options: RUN_METHODS.map((m) => ({ value: m, label: METHODS[m].description })) },
    use: "always",
  },
  {
    path: "domain",
    label: "Domain",
    hint: "A built-in environment, a remote one (a real environment registered by URL on the Domains page), or an imported domain (logs only: trained in its synthetic environment, evaluated by proxies)",
    section: "Run",
    // Until the domains list arrives (launchFields.ts puts every domain here), the built-in ones.
    kind: {
      type: "enum",
      options: REAL_DOMAIN_NAMES.map((d) => ({ value: d, label: REAL_DOMAIN_LABELS[d] })),
    },
    use: "always",
  },
  {
    path: "seed",
    label: "Seed",
    hint: "Runs are deterministic given it",
    section: "Run",
    kind: int(0),
    use: "always",
  },
  {
    path: "seedTasks",
    label: "Seed tasks",
    hint: "Train tasks 0..n-1: those the offline data covers",
    section: "Run",
    kind: int(1),
    use: "always",
  },
  {
    path: "syntheticTransitions",
    label: "Synthetic transitions budget",
    hint: "Ends the synthetic phase once it has made this many (0: iterations decide)",
    section: "Run",
    kind: { type: "int", min: 0, step: 1000 },
    use: "synthetic",
  },
  {
    path: "realTransitions",
    label: "Real transitions budget",
    hint: "S2R fine-tuning budget, or the real-env baseline's",
    section: "Run",
    kind: { type: "int", min: 0, step: 100 },
    use: "real-budget",
  },
  {
    path: "warmStart",
    label: "Warm start",
    hint: "Behaviour-clone the offline demonstrations before RL (an LLM policy's prior)",
    section: "Run",
    kind: {
      type: "enum",
      options: [
        { value: "none", label: "none (blank policy)" },
        { value: "bc", label: "behaviour cloning" },
      ],
    },
    use: "warm-start",
  },
  {
    path: "demonstrations",
    label: "Demonstrations",
    hint: "Expert episodes for behaviour cloning or the bc warm start",
    section: "Run",
    kind: int(1),
    use: "cloning",
  },
  {
    path: "algorithm",
    label: "Algorithm",
    hint: "GRPO: group-relative advantages; PPO: clipped with a value baseline",
    section: "Policy optimisation",
    kind: {
      type: "enum",
      options: [
        { value: "grpo", label: "GRPO" },
        { value: "ppo", label: "PPO" },
      ],
    },
    use: "rl",
  },
  {
    path: "iterations",
    label: "Iterations",
    hint: "In the synthetic env (DreamGym, S2R's first phase); the real-env baseline's cap",
    section: "Policy optimisation",
    kind: int(0),
    use: "rl",
  },
  {
    path: "tasksPerBatch",
    label: "Tasks per batch",
    hint: "Tasks rolled out each iteration",
    section: "Policy optimisation",
    kind: int(1),
    use: "rl",
  },
  {
    path: "groupSize",
    label: "Group size",
    hint: "Rollouts per task: the GRPO group (at least 2)",
    section: "Policy optimisation",
    kind: int(2),
    use: "rl",
  },
  {
    path: "rollouts.concurrency",
    label: "Rollouts in flight",
    hint: "Episodes run at once (overlapping model requests); results do not depend on it",
    section: "Policy optimisation",
    kind: int(1),
    use: "rl",
  },
  {
    path: "learningRate",
    label: "Learning rate",
    hint: "Adam step size of the GRPO or PPO update",
    section: "Policy optimisation",
    kind: num(0, 0.001),
    use: "rl",
  },
  ...clippedUpdateFields("grpo", "GRPO"),
  {
    path: "grpo.advantageEstimator",
    label: "Advantage estimator",
    hint: "How an episode's reward becomes its advantage within its task's group",
    section: "GRPO",
    kind: {
      type: "enum",
      options: [
        { value: "grpo", label: "group-normalised (GRPO)" },
        { value: "dr-grpo", label: "mean-centred, no std (Dr. GRPO)" },
      ],
    },
    use: "grpo",
  },
  {
    path: "grpo.klBeta",
    label: "KL β",
    hint: "k3 KL penalty to the policy RL started from; 0 is off (DeepSeekMath: 0.04)",
    section: "GRPO",
    kind: num(0, 0.01),
    use: "grpo",
  },
  {
    path: "grpo.advantageEpsilon",
    label: "Advantage ε",
    hint: "Added to the group's reward std (group-normalised advantage)",
    section: "GRPO",
    kind: num(0, 0.000001),
    use: "grpo",
  },
  {
    path: "grpo.aggregation",
    label: "Loss aggregation",
    hint: "How decisions are averaged into the loss",
    section: "GRPO",
    kind: {
      type: "enum",
      options: [
        { value: "episode", label: "per episode (DeepSeekMath)" },
        { value: "decision", label: "per decision (DAPO)" },
      ],
    },
    use: "grpo",
  },
  ...clippedUpdateFields("ppo", "PPO"),
  {
    path: "ppo.gamma",
    label: "γ",
    hint: "Discount; below 1 a shorter success is worth more",
    section: "PPO",
    kind: num(0, 0.01, 1),
    use: "ppo",
  },
  {
    path: "ppo.gaeLambda",
    label: "GAE λ",
    hint: "1: Monte Carlo returns; 0: one-step TD",
    section: "PPO",
    kind: num(0, 0.01, 1),
    use: "ppo",
  },
  {
    path: "ppo.valueCoef",
    label: "Value coefficient",
    hint: "Weight of the value loss",
    section: "PPO",
    kind: num(0, 0.1),
    use: "ppo",
  },
  {
    path: "ppo.normalizeAdvantages",
    label: "Normalise advantages",
    hint: "Mean 0, std 1 within each minibatch",
    section: "PPO",
    kind: BOOL,
    use: "ppo",
  },
  {
    path: "ppo.clipValueLoss",
    label: "Clip value loss",
    hint: "Clip the value update around the old value",
    section: "PPO",
    kind: BOOL,
    use: "ppo",
  },
  {
    path: "bc.learningRate",
    label: "Learning rate",
    hint: "Adam step size of behaviour cloning",
    section: "Behaviour cloning",
    kind: num(0, 0.001),
    use: "cloning",
  },
  {
    path: "bc.epochs",
    label: "Epochs",
    hint: "Passes over the demonstrations",
    section: "Behaviour cloning",
    kind: int(1),
    use: "cloning",
  },
  {
    path: "bc.batchSize",
    label: "Batch size",
    hint: "Decisions per Adam step",
    section: "Behaviour cloning",
    kind: int(1),
    use: "cloning",
  },
  {
    path: "bc.l2",
    label: "L2",
    hint: "Penalty on the weights a batch touches",
    section: "Behaviour cloning",
    kind: num(0, 0.0001),
    use: "cloning",
  },
  {
    path: "bc.maxGradNorm",
    label: "Max gradient norm",
    hint: "Global gradient-norm clip",
    section: "Behaviour cloning",
    kind: num(0, 0.5),
    use: "cloning",
  },
  {
    path: "backends.experience",
    label: "Experience model backend",
    hint: "Who writes next states and rewards",
    section: "Experience model",
    kind: BACKEND,
    use: "synthetic",
  },
  {
    path: "experience.k",
    label: "Demonstrations retrieved (k)",
    hint: "Top-k from the replay buffer; 0 is “w/o replay”",
    section: "Experience model",
    kind: int(0),
    use: "synthetic",
  },
  {
    path: "experience.historyWindow",
    label: "History window",
    hint: "Past steps shown to the experience model",
    section: "Experience model",
    kind: int(0),
    use: "synthetic",
  },
  {
    path: "experience.reasoning",
    label: "Reasoning trace",
    hint: "Off is the paper's “w/o reasoning”",
    section: "Experience model",
    kind: BOOL,
    use: "synthetic",
  },
  {
    path: "experience.enrichBuffer",
    label: "Enrich the replay buffer",
    hint: "The run's synthetic transitions join the buffer it retrieves from (the paper's); off: offline data only",
    section: "Experience model",
    kind: BOOL,
    use: "synthetic",
  },
  {
    path: "curriculum.taskGeneration",
    label: "Task generation",
    hint: "Write variations of high-variance tasks; off is the paper's “w/o task generation” (real-env default: off)",
    section: "Curriculum",
    kind: BOOL,
    use: "task-generation-switch",
  },
  {
    path: "backends.taskGenerator",
    label: "Task generator backend",
    hint: "Who writes task variations",
    section: "Curriculum",
    kind: BACKEND,
    use: "task-generation",
  },
  {
    path: "curriculum.generator",
    label: "Task generator",
    hint: "Blind writes from the seed tasks alone (the paper's); grounded reads the real environment (built-in domains)",
    section: "Curriculum",
    kind: {
      type: "enum",
      options: [
        { value: "blind", label: "blind (seed instructions only)" },
        { value: "grounded", label: "grounded (reads the real environment)" },
      ],
    },
    use: "task-generation",
  },
  {
    path: "curriculum.lambda",
    label: "λ (generated share)",
    hint: "Upper bound on generated tasks per batch, 0–1",
    section: "Curriculum",
    kind: num(0, 0.05, 1),
    use: "task-generation",
  },
  {
    path: "curriculum.parentsPerIteration",
    label: "Parents per iteration",
    hint: "Highest-variance tasks varied each iteration",
    section: "Curriculum",
    kind: int(0),
    use: "task-generation",
  },
  {
    path: "curriculum.variationsPerParent",
    label: "Variations per parent",
    hint: "New tasks written from each parent",
    section: "Curriculum",
    kind: int(1),
    use: "task-generation",
  },
  {
    path: "experimental.realInterleave",
    label: "Real iteration every",
    hint: "S2R: one real iteration after every this many synthetic ones while the budget lasts (0: all real ones after the synthetic phase)",
    section: "Experimental",
    kind: int(0),
    use: "sim-to-real",
  },
  {
    path: "experimental.learnFromReal",
    label: "Learn from real transitions",
    hint: "S2R: the run's real transitions join the replay buffer and the experience model's memory",
    section: "Experimental",
    kind: BOOL,
    use: "sim-to-real",
  },
  {
    path: "experimental.pessimism.mode",
    label: "Pessimism",
    hint: "Where the experience model is unsure: halt the episode (MOReL) or penalise the reward (MOPO)",
    section: "Experimental",
    kind: {
      type: "enum",
      options: [
        { value: "off", label: "Off" },
        { value: "halt", label: "Halt below the threshold (MOReL)" },
        { value: "penalty", label: "Penalty × doubt (MOPO)" },
      ],
    },
    use: "synthetic",
  },
  {
    path: "experimental.pessimism.threshold",
    label: "Pessimism threshold",
    hint: "Halt: steps below this confidence (0–1) end the episode",
    section: "Experimental",
    kind: num(0, 0.05, 1),
    use: "synthetic",
  },
  {
    path: "experimental.pessimism.penalty",
    label: "Pessimism penalty",
    hint: "Halt: the reward of a halted step is minus this; penalty: reward − this × (1 − confidence)",
    section: "Experimental",
    kind: num(0, 0.1),
    use: "synthetic",
  },
  {
    path: "experimental.oracle.states",
    label: "Oracle: real states",
    hint: "A diagnostic, not a method: the real environment writes the next states, to measure what the model's errors cost",
    section: "Experimental",
    kind: {
      type: "enum",
      options: [
        { value: "none", label: "None (the model's)" },
        { value: "all", label: "All (the real environment's)" },
        // The pattern is set in a config file or with `train --set experimental.oracle.actions=...`.
        { value: "matching", label: "After actions matching a pattern (config file)", disabled: true },
      ],
    },
    use: "synthetic",
  },
  {
    path: "experimental.oracle.reward",
    label: "Oracle: real rewards",
    hint: "A diagnostic: episodes end where the real ones end, with the real reward and success",
    section: "Experimental",
    kind: BOOL,
    use: "synthetic",
  },
  {
    path: "evaluation.interval",
    label: "Eval interval",
    hint: "Real-env test every this many iterations (and at the end)",
    section: "Evaluation",
    kind: int(1),
    use: "rl",
  },
  {
    path: "evaluation.episodes",
    label: "Eval episodes",
    hint: "Held-out real test tasks per evaluation",
    section: "Evaluation",
    kind: int(1),
    use: "always",
  },
  {
    path: "evaluation.tasks",
    label: "Evaluated on",
    hint: "Test tasks (what the table reports) or validation tasks, to choose settings without looking at the test tasks",
    section: "Evaluation",
    kind: {
      type: "enum",
      options: [
        { value: "test", label: "Test tasks" },
        { value: "validation", label: `Validation tasks (train tasks from ${VALIDATION_OFFSET} on)` },
      ],
    },
    use: "always",
  },
  {
    path: "evaluation.simulated",
    label: "Sim-to-real tasks",
    hint: "Of those test tasks, also played in the synthetic environment: the sim-to-real gap (0: off)",
    section: "Evaluation",
    kind: int(0),
    use: "synthetic",
  },
  {
    path: "evaluation.judge",
    label: "LLM judge (proxy)",
    hint: "Imported domains: an LLM reads each evaluation episode and says whether it succeeded (needs an OpenAI-compatible endpoint)",
    section: "Evaluation",
    kind: BOOL,
    use: "imported",
  },
  {
    path: "evaluation.greedy",
    label: "Greedy evaluation",
    hint: "Off: sample, as the untrained baseline does",
    section: "Evaluation",
    kind: BOOL,
    use: "always",
  },
];

function get(obj: unknown, path: string): unknown {
  let at: unknown = obj;
  for (const key of path.split(".")) at = (at as Record<string, unknown> | undefined)?.[key];
  return at;
}

function set(obj: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(".");
  let at = obj;
  for (const key of keys.slice(0, -1)) {
    at[key] ??= {};
    at = at[key] as Record<string, unknown>;
  }
  at[keys.at(-1) as string] = value;
}

/** A config as form values: every field filled, defaults included. */
export function toFormValues(config: RunConfig): FormValues {
  const values: FormValues = {};
  for (const field of FIELDS) {
    const value = get(config, field.path);
    values[field.path] = field.kind.type === "bool" ? Boolean(value) : String(value ?? "");
  }
  return values;
}

function fieldValue(field: FieldDef, value: FieldValue | undefined): unknown {
  if (field.kind.type === "bool") return Boolean(value);
  const text = typeof value === "string" ? value.trim() : "";
  if (field.kind.type === "int" || field.kind.type === "number") {
    if (text === "" && field.kind.optional) return undefined;
    // NaN rather than a default: a blank or mistyped number is an error to show, not a value to guess.
    return text === "" ? Number.NaN : Number(text);
  }
  return text;
}

/** The raw object the form stands for, before validation. */
export function fromFormValues(values: FormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of FIELDS) {
    const value = fieldValue(field, values[field.path]);
    if (value !== undefined) set(out, field.path, value);
  }
  return out;
}

export type Parsed = { ok: true; config: RunConfig } | { ok: false; errors: FieldErrors };

/**
 * A validation problem at a field's dotted path. From the form's own parse it carries zod's issue details; from
 * the server only the path and zod's message (tRPC's error formatter), which `plainMessage` reads instead.
 */
export interface FormIssue {
  path: string;
  message: string;
  code?: string;
  origin?: string;
  expected?: string;
  received?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
}

const amount = (n: number | bigint | string) =>
  typeof n === "string" ? n : n.toLocaleString("en-US", { maximumFractionDigits: 10 });

/** A bound as words: "At least 1", "More than 0", "At most 200 characters". */
function bound(side: "min" | "max", inclusive: boolean, limit: number | bigint | string, unit: string) {
  const words = side === "min" ? (inclusive ? "At least" : "More than") : inclusive ? "At most" : "Less than";
  return `${words} ${amount(limit)}${unit}`;
}

/** zod's default messages, for issues that arrive from the server as text only. */
const ZOD_MESSAGES: ReadonlyArray<[RegExp, (m: RegExpMatchArray) => string]> = [
  [/expected (?:number|int), received (?:NaN|string|undefined|null)/, () => "Enter a number"],
  [/expected int, received number/, () => "A whole number"],
  [/Too small: expected number to be (>=?)\s*(-?[\d.e+]+)/, (m) => bound("min", m[1] === ">=", m[2]!, "")],
  [/Too big: expected number to be (<=?)\s*(-?[\d.e+]+)/, (m) => bound("max", m[1] === "<=", m[2]!, "")],
  [
    /Too small: expected string to have (>=?)\s*(\d+) characters?/,
    (m) => bound("min", m[1] === ">=", Number(m[2]), " characters"),
  ],
  [
    /Too big: expected string to have (<=?)\s*(\d+) characters?/,
    (m) => bound("max", m[1] === "<=", Number(m[2]), " characters"),
  ],
  [/Invalid option: expected one of/, () => "Pick one of the options"],
];

/**
 * A validation issue as a person would say it: "Enter a number", "A whole number", "At least 1", "At most 1",
 * rather than zod's "expected number, received NaN". Issues written for people (refinements) stay as they are.
 */
export function plainMessage(issue: FormIssue): string {
  const { code, origin } = issue;
  if (code === "invalid_type" && (issue.expected === "number" || issue.expected === "int"))
    return issue.expected === "int" ? "A whole number" : "Enter a number";
  if ((code === "too_small" || code === "too_big") && (origin === "number" || origin === "string")) {
    const limit = code === "too_small" ? issue.minimum : issue.maximum;
    if (limit !== undefined)
      return bound(
        code === "too_small" ? "min" : "max",
        issue.inclusive !== false,
        limit,
        origin === "string" ? " characters" : "",
      );
  }
  if (code === "invalid_value") return "Pick one of the options";
  for (const [pattern, say] of ZOD_MESSAGES) {
    const match = issue.message.match(pattern);
    if (match) return say(match);
  }
  return issue.message;
}

/** Issues by field path, in plain words; ones that name no field go under "" so the form can still show them. */
export function issuesToErrors(issues: ReadonlyArray<FormIssue>): FieldErrors {
  const errors: FieldErrors = {};
  const known = new Set(FIELDS.map((f) => f.path));
  for (const issue of issues) {
    const key = known.has(issue.path) ? issue.path : "";
    const plain = plainMessage(issue);
    const message = key === "" && issue.path ? `${issue.path}: ${plain}` : plain;
    // One message per field: a blank number is "Enter a number" once, not also "At least 1".
    if (errors[key]?.split("; ").includes(message)) continue;
    errors[key] = errors[key] ? `${errors[key]}; ${message}` : message;
  }
  return errors;
}

/** Client-side validation with the server's schema: the same rules, before a round trip. */
export function parseForm(values: FormValues): Parsed {
  const parsed = RunConfig.safeParse(fromFormValues(values));
  if (parsed.success) return { ok: true, config: parsed.data };
  return {
    ok: false,
    errors: issuesToErrors(
      parsed.error.issues.map((i) => ({ ...(i as Omit<FormIssue, "path">), path: i.path.join(".") })),
    ),
  };
}

/** The form's values as the methods table reads them (an unknown method reads everything, so nothing is hidden). */
function methodSettings(values: FormValues): MethodSettings | undefined {
  const method = String(values.method ?? "");
  if (!isRunMethod(method)) return undefined;
  return {
    method,
    algorithm: values.algorithm === "ppo" ? "ppo" : "grpo",
    warmStart: values.warmStart === "bc" ? "bc" : "none",
    iterations: Number(values.iterations),
    realTransitions: Number(values.realTransitions),
    syntheticTransitions: Number(values.syntheticTransitions ?? 0),
    curriculum: { taskGeneration: Boolean(values["curriculum.taskGeneration"]) },
    domain: String(values.domain ?? ""),
  };
}

export function isUsed(field: FieldDef, values: FormValues): boolean {
  const settings = methodSettings(values);
  return settings ? usesSetting(settings, field.use) : true;
}

/**
 * A method change also resets what the method decides by default (task generation is off for real-env
 * baselines), so that switching a DreamGym preset to "real" does not quietly keep DreamGym's curriculum.
 */
/** Which held-out tasks a stored run was evaluated on (runs stored before the setting: the test tasks). */
export function evaluatedOn(stored: unknown): HeldOutTasks {
  const parsed = RunConfig.safeParse(stored);
  return parsed.success ? parsed.data.evaluation.tasks : "test";
}

export function changeValue(values: FormValues, path: string, value: FieldValue): FormValues {
  const next = { ...values, [path]: value };
  if (path === "method" && typeof value === "string" && isRunMethod(value))
    next["curriculum.taskGeneration"] = METHODS[value].taskGenerationByDefault;
  return next;
}

/**
 * A stored run config as the settings its method read, in the form's order, with their values. Settings the
 * method ignores are left out (they would suggest an effect they did not have); an unreadable config (an older
 * schema) is shown whole, as stored.
 */
export function usedSettings(stored: unknown): Array<{ path: string; label: string; value: string }> {
  const parsed = RunConfig.safeParse(stored);
  if (!parsed.success) return flatten(stored).map(([path, value]) => ({ path, label: path, value }));
  const values = toFormValues(parsed.data);
  return FIELDS.filter((f) => isUsed(f, values) && !(f.path === "name" && values.name === "")).map((f) => ({
    path: f.path,
    label: f.label,
    value: String(values[f.path]),
  }));
}

function flatten(value: unknown, prefix = ""): Array<[string, string]> {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return [[prefix || "config", JSON.stringify(value)]];
  return Object.entries(value).flatMap(([key, v]) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? flatten(v, `${prefix}${key}.`)
      : [[`${prefix}${key}`, typeof v === "string" ? v : JSON.stringify(v)] as [string, string]],
  );
}
