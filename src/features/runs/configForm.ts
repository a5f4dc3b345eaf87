import { RunConfig, type RunMethod } from "@/core/train/config";

/**
 * The launch form's model: every RunConfig setting as a field (by its dotted path), the form's values as text
 * and booleans (so a half-typed number is kept, and refused with zod's message rather than silently fixed), and
 * the round trip to a RunConfig through the same schema the server parses with.
 */
export type FieldValue = string | boolean;
export type FormValues = Record<string, FieldValue>;
export type FieldErrors = Record<string, string>;

type Kind =
  | { type: "int" | "number"; min?: number; max?: number; step?: number }
  | { type: "bool" }
  | { type: "text" }
  | { type: "enum"; options: ReadonlyArray<{ value: string; label: string }> };

export interface FieldDef {
  path: string;
  label: string;
  hint: string;
  section: Section;
  kind: Kind;
  /** Whether the run reads the setting, given the rest of the form (the form dims it otherwise). Absent: always. */
  used?: (values: FormValues) => boolean;
}

export const SECTIONS = [
  "Run",
  "Policy optimisation",
  "Experience model",
  "Curriculum",
  "Evaluation",
] as const;
export type Section = (typeof SECTIONS)[number];

const methodIn =
  (...methods: RunMethod[]) =>
  (values: FormValues): boolean =>
    methods.includes(values.method as RunMethod);
const RL = methodIn("dreamgym", "dreamgym-s2r", "real");
const SYNTHETIC = methodIn("dreamgym", "dreamgym-s2r");
const BACKEND = {
  type: "enum",
  options: [
    { value: "embedded", label: "embedded (offline)" },
    { value: "openai", label: "openai-compatible" },
  ],
} as const;

export const FIELDS: readonly FieldDef[] = [
  {
    path: "name",
    label: "Name",
    hint: "Blank: domain, method and algorithm",
    section: "Run",
    kind: { type: "text" },
  },
  {
    path: "method",
    label: "Method",
    hint: "Where the policy learns: synthetic experience, then real (S2R), or the real env only",
    section: "Run",
    kind: {
      type: "enum",
      options: [
        { value: "dreamgym", label: "DreamGym (synthetic only)" },
        { value: "dreamgym-s2r", label: "DreamGym-S2R (synthetic, then real)" },
        { value: "real", label: "Real-env RL" },
        { value: "bc", label: "Behaviour cloning" },
        { value: "untrained", label: "Untrained policy" },
      ],
    },
  },
  {
    path: "domain",
    label: "Domain",
    hint: "The real environment the policy is tested in",
    section: "Run",
    kind: {
      type: "enum",
      options: [
        { value: "shop", label: "shop (WebShop)" },
        { value: "household", label: "household (ALFWorld)" },
      ],
    },
  },
  {
    path: "seed",
    label: "Seed",
    hint: "Runs are deterministic given it",
    section: "Run",
    kind: { type: "int", min: 0 },
  },
  {
    path: "seedTasks",
    label: "Seed tasks",
    hint: "Train tasks 0..n-1: those the offline data covers",
    section: "Run",
    kind: { type: "int", min: 1 },
  },
  {
    path: "realTransitions",
    label: "Real transitions budget",
    hint: "S2R fine-tuning budget, or the real-env baseline's",
    section: "Run",
    kind: { type: "int", min: 0, step: 100 },
    used: methodIn("dreamgym-s2r", "real"),
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
    used: RL,
  },
  {
    path: "demonstrations",
    label: "Demonstrations",
    hint: "Expert episodes for behaviour cloning or the bc warm start",
    section: "Run",
    kind: { type: "int", min: 1 },
    used: (v) => v.method === "bc" || (RL(v) && v.warmStart === "bc"),
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
    used: RL,
  },
  {
    path: "iterations",
    label: "Iterations",
    hint: "In the synthetic env (DreamGym) or the real one",
    section: "Policy optimisation",
    kind: { type: "int", min: 0 },
    used: RL,
  },
  {
    path: "tasksPerBatch",
    label: "Tasks per batch",
    hint: "Tasks rolled out each iteration",
    section: "Policy optimisation",
    kind: { type: "int", min: 1 },
    used: RL,
  },
  {
    path: "groupSize",
    label: "Group size",
    hint: "Rollouts per task: the GRPO group (at least 2)",
    section: "Policy optimisation",
    kind: { type: "int", min: 2 },
    used: RL,
  },
  {
    path: "learningRate",
    label: "Learning rate",
    hint: "Step size of the policy update",
    section: "Policy optimisation",
    kind: { type: "number", min: 0, step: 0.001 },
  },
  {
    path: "backends.experience",
    label: "Experience model backend",
    hint: "Who writes next states and rewards",
    section: "Experience model",
    kind: BACKEND,
    used: SYNTHETIC,
  },
  {
    path: "experience.k",
    label: "Demonstrations retrieved (k)",
    hint: "Top-k from the replay buffer; 0 is “w/o replay”",
    section: "Experience model",
    kind: { type: "int", min: 0 },
    used: SYNTHETIC,
  },
  {
    path: "experience.historyWindow",
    label: "History window",
    hint: "Past steps shown to the experience model",
    section: "Experience model",
    kind: { type: "int", min: 0 },
    used: SYNTHETIC,
  },
  {
    path: "experience.reasoning",
    label: "Reasoning trace",
    hint: "Off is the paper's “w/o reasoning”",
    section: "Experience model",
    kind: { type: "bool" },
    used: SYNTHETIC,
  },
  {
    path: "experience.offlineOnly",
    label: "Retrieve offline experience only",
    hint: "Off: the run's own synthetic transitions too",
    section: "Experience model",
    kind: { type: "bool" },
    used: SYNTHETIC,
  },
  {
    path: "backends.taskGenerator",
    label: "Task generator backend",
    hint: "Who writes task variations",
    section: "Curriculum",
    kind: BACKEND,
    used: SYNTHETIC,
  },
  {
    path: "curriculum.taskGeneration",
    label: "Task generation",
    hint: "Off is the paper's “w/o task generation”",
    section: "Curriculum",
    kind: { type: "bool" },
    used: SYNTHETIC,
  },
  {
    path: "curriculum.lambda",
    label: "λ (generated share)",
    hint: "Upper bound on generated tasks per batch, 0–1",
    section: "Curriculum",
    kind: { type: "number", min: 0, max: 1, step: 0.05 },
    used: SYNTHETIC,
  },
  {
    path: "curriculum.parentsPerIteration",
    label: "Parents per iteration",
    hint: "Highest-variance tasks varied each iteration",
    section: "Curriculum",
    kind: { type: "int", min: 0 },
    used: SYNTHETIC,
  },
  {
    path: "curriculum.variationsPerParent",
    label: "Variations per parent",
    hint: "New tasks written from each parent",
    section: "Curriculum",
    kind: { type: "int", min: 1 },
    used: SYNTHETIC,
  },
  {
    path: "evaluation.interval",
    label: "Eval interval",
    hint: "Real-env test every this many iterations (and at the end)",
    section: "Evaluation",
    kind: { type: "int", min: 1 },
  },
  {
    path: "evaluation.episodes",
    label: "Eval episodes",
    hint: "Held-out real test tasks per evaluation",
    section: "Evaluation",
    kind: { type: "int", min: 1 },
  },
  {
    path: "evaluation.greedy",
    label: "Greedy evaluation",
    hint: "Off: sample, as the untrained baseline does",
    section: "Evaluation",
    kind: { type: "bool" },
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
  if (field.kind.type === "int" || field.kind.type === "number")
    // NaN rather than a default: a blank or mistyped number is an error to show, not a value to guess.
    return text === "" ? Number.NaN : Number(text);
  return text;
}

/** The raw object the form stands for, before validation. */
export function fromFormValues(values: FormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of FIELDS) set(out, field.path, fieldValue(field, values[field.path]));
  return out;
}

export type Parsed = { ok: true; config: RunConfig } | { ok: false; errors: FieldErrors };

/** Issues by field path; ones that name no field go under "" so the form can still show them. */
export function issuesToErrors(issues: ReadonlyArray<{ path: string; message: string }>): FieldErrors {
  const errors: FieldErrors = {};
  const known = new Set(FIELDS.map((f) => f.path));
  for (const issue of issues) {
    const key = known.has(issue.path) ? issue.path : "";
    const message = key === "" && issue.path ? `${issue.path}: ${issue.message}` : issue.message;
    errors[key] = errors[key] ? `${errors[key]}; ${message}` : message;
  }
  return errors;
}

/** Client-side validation with the server's schema: the same messages, before a round trip. */
export function parseForm(values: FormValues): Parsed {
  const parsed = RunConfig.safeParse(fromFormValues(values));
  if (parsed.success) return { ok: true, config: parsed.data };
  return {
    ok: false,
    errors: issuesToErrors(parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }))),
  };
}

export function isUsed(field: FieldDef, values: FormValues): boolean {
  return field.used ? field.used(values) : true;
}
