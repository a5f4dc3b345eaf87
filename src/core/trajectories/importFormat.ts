import { z } from "zod";
import { DomainName } from "../envs/names";
import { REAL_ENV_SOURCES, SPLITS } from "../types";
import { hashString } from "../util/random";

/**
 * The JSONL import format: one trajectory per line, for bringing logs of environments from elsewhere (e.g. a
 * WebArena-Lite-style web domain that has no real environment here). See README "Importing trajectories".
 *
 * {"domain":"web","instruction":"…","task_id":"optional","split":"train","source":"offline","policy":"human",
 *  "steps":[{"state":"…","admissible_actions":["…"],"action":"…","reasoning":"…","next_state":"…","reward":0,"done":false}]}
 */
const ImportStep = z.strictObject({
  state: z.string().min(1, "state is empty"),
  admissible_actions: z.array(z.string()).optional(),
  action: z.string().min(1, "action is empty"),
  reasoning: z.string().optional(),
  next_state: z.string(),
  reward: z.number().finite(),
  done: z.boolean(),
  success: z.boolean().optional(),
  valid: z.boolean().optional(),
});

export const ImportLine = z
  .strictObject({
    domain: DomainName,
    instruction: z.string().min(1, "instruction is empty"),
    task_id: z.string().min(1).max(200).optional(),
    split: z.enum(SPLITS).default("train"),
    source: z.enum(REAL_ENV_SOURCES).default("offline"),
    policy: z.string().max(100).optional(),
    steps: z.array(ImportStep).min(1, "a trajectory needs at least one step"),
  })
  .superRefine((line, ctx) => {
    line.steps.forEach((step, i) => {
      if (step.done && i !== line.steps.length - 1) {
        ctx.addIssue({
          code: "custom",
          path: ["steps", i, "done"],
          message: "only the last step may be done",
        });
      }
    });
  });
export type ImportLine = z.infer<typeof ImportLine>;

export interface ImportedTrajectory {
  line: number;
  /** Content hash of the line's meaning (not its formatting): the same trajectory imports once. */
  key: string;
  taskId: string;
  data: ImportLine;
}

export interface ImportError {
  line: number;
  message: string;
}

export interface ParsedImport {
  trajectories: ImportedTrajectory[];
  errors: ImportError[];
  /** Lines that were blank (allowed, skipped). */
  blank: number;
}

/** Stable JSON (sorted keys), so the key of a trajectory does not depend on the order of its fields. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Two independent 32-bit hashes: 64 bits are plenty to tell trajectories apart in one database. */
export function contentKey(value: unknown): string {
  const text = canonical(value);
  const a = hashString(text).toString(16).padStart(8, "0");
  const b = hashString(`dreamgym:${text}:${text.length}`).toString(16).padStart(8, "0");
  return `${a}${b}`;
}

export function importedTaskId(line: ImportLine): string {
  return line.task_id ?? `${line.domain}:imported:${contentKey([line.domain, line.instruction])}`;
}

function describe(issue: z.core.$ZodIssue): string {
  const where = issue.path.length
    ? issue.path
        .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
        .join("")
        .replace(/^\./, "")
    : "(line)";
  return `${where}: ${issue.message}`;
}

/** Checks one trajectory (a parsed JSONL line, or a record converted from another format). */
export function checkTrajectory(json: unknown, line: number): ImportedTrajectory | ImportError {
  const parsed = ImportLine.safeParse(json);
  if (!parsed.success) return { line, message: parsed.error.issues.map(describe).join("; ") };
  return { line, key: contentKey(parsed.data), taskId: importedTaskId(parsed.data), data: parsed.data };
}

/** Parses a whole file. Every bad line is reported with its 1-based number; the caller imports only when none is. */
export function parseImport(text: string): ParsedImport {
  const trajectories: ImportedTrajectory[] = [];
  const errors: ImportError[] = [];
  let blank = 0;
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const lineNo = i + 1;
    if (raw.trim() === "") {
      blank++;
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      errors.push({ line: lineNo, message: `not valid JSON (${(error as Error).message})` });
      return;
    }
    const checked = checkTrajectory(json, lineNo);
    if ("message" in checked) errors.push(checked);
    else trajectories.push(checked);
  });
  // Every non-blank line is a trajectory or an error, so nothing of either means nothing but blank lines.
  if (trajectories.length === 0 && errors.length === 0) errors.push({ line: 0, message: EMPTY_FILE });
  return { trajectories, errors, blank };
}

/** What an empty file (or one of only blank lines) is reported as: there is no bad line to number. */
export const EMPTY_FILE = "the file is empty";

/**
 * Why a file was refused, for the web form, the CLI and the worker alike: the bad lines with their numbers, or
 * that the file is empty (which is not "1 bad line").
 */
export function rejectionMessage(name: string, errors: ImportError[]): string {
  const bad = errors.filter((e) => e.line > 0).length;
  if (bad === 0) return `${name} was rejected, nothing imported: ${errors.map((e) => e.message).join("; ")}`;
  return `${name} was rejected (${bad} bad line${bad === 1 ? "" : "s"}), nothing imported:\n${formatImportErrors(errors)}`;
}

export function formatImportErrors(errors: ImportError[], limit = 50): string {
  const shown = errors.slice(0, limit).map((e) => (e.line > 0 ? `line ${e.line}: ${e.message}` : e.message));
  if (errors.length > limit) shown.push(`… and ${errors.length - limit} more bad lines`);
  return shown.join("\n");
}
