/**
 * Reading the records of a foreign log file, each with the line it starts on, so that an error can name it.
 * A file is JSONL (one record per line), one JSON array of records (AgentGym's AgentTraj files are), or one
 * JSON object (a single WebArena trace).
 */

export interface SourceRecord {
  /** 1-based line the record starts on. */
  line: number;
  /** 1-based position of the record in the file (its line's record for JSONL, its index in an array). */
  item: number;
  value: unknown;
}

export interface ReadRecords {
  records: SourceRecord[];
  errors: { line: number; message: string }[];
}

/** Lines (1-based) on which each top-level element of a JSON array starts; `text` must parse as an array. */
function arrayElementLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let expectElement = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") line++;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === "\\") escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r" || c === "\n") continue;
    if (depth === 1 && expectElement && c !== "]") {
      lines.push(line);
      expectElement = false;
    }
    if (c === '"') inString = true;
    else if (c === "[" || c === "{") {
      depth++;
      if (depth === 1) expectElement = true;
    } else if (c === "]" || c === "}") depth--;
    else if (c === "," && depth === 1) expectElement = true;
  }
  return lines;
}

export function readRecords(text: string): ReadRecords {
  const trimmed = text.trimStart();
  const offset = text.length - trimmed.length;
  const firstLine = text.slice(0, offset).split("\n").length;
  if (trimmed.startsWith("[")) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      return {
        records: [],
        errors: [{ line: firstLine, message: `not valid JSON (${(error as Error).message})` }],
      };
    }
    const lines = arrayElementLines(text);
    const values = json as unknown[];
    return {
      records: values.map((value, i) => ({ line: lines[i] ?? firstLine, item: i + 1, value })),
      errors: [],
    };
  }
  // One object spread over several lines (a pretty-printed trace) is one record.
  if (trimmed.startsWith("{")) {
    try {
      const value: unknown = JSON.parse(text);
      return { records: [{ line: firstLine, item: 1, value }], errors: [] };
    } catch {
      // Not one object: JSONL, read below line by line.
    }
  }
  const records: SourceRecord[] = [];
  const errors: ReadRecords["errors"] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === "") return;
    try {
      records.push({ line: i + 1, item: records.length + errors.length + 1, value: JSON.parse(raw) });
    } catch (error) {
      errors.push({ line: i + 1, message: `not valid JSON (${(error as Error).message})` });
    }
  });
  return { records, errors };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A domain name the import format accepts, made from free text: lowercase, other characters as '-'. */
export function domainName(text: string): string {
  const name = text
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64);
  return name || "imported";
}

/** The outcome fields a log may carry at the end: a reward, a success flag, or an evaluation of either. */
export function outcomeOf(record: Record<string, unknown>): {
  reward?: number;
  success?: boolean;
  error?: string;
} {
  let reward: number | undefined;
  let success: boolean | undefined;
  const take = (where: string, value: unknown): string | undefined => {
    if (value === undefined || value === null) return undefined;
    if (typeof value === "number" && Number.isFinite(value)) {
      reward ??= value;
      return undefined;
    }
    if (typeof value === "boolean") {
      success ??= value;
      return undefined;
    }
    if (where === "evaluation" && isObject(value)) {
      return (
        take("evaluation.score", value.score) ??
        take("evaluation.reward", value.reward) ??
        take("evaluation.success", value.success)
      );
    }
    return `${where}: must be a number or a boolean`;
  };
  const error =
    take("reward", record.reward) ?? take("success", record.success) ?? take("evaluation", record.evaluation);
  if (error) return { error };
  return {
    ...(reward !== undefined ? { reward } : {}),
    ...(success !== undefined ? { success } : {}),
  };
}
