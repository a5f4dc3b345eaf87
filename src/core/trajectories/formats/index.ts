import {
  checkTrajectory,
  EMPTY_FILE,
  type ImportError,
  type ParsedImport,
  parseImport,
} from "../importFormat";
import { convertAgentTraj } from "./agentTraj";
import type { Conversion, ConvertOptions } from "./types";
import { convertWebArena } from "./webArena";

export type { ConvertOptions } from "./types";

/**
 * The formats a trajectory file may come in (README "Importing trajectories"). Every one ends as the project's
 * own records, checked and imported by the same path: all or nothing, every bad line named, keyed by content.
 */
export const IMPORT_FORMATS = ["dreamgym", "agenttraj", "webarena", "auto"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];
export type ConcreteImportFormat = Exclude<ImportFormat, "auto">;
export const DEFAULT_IMPORT_FORMAT: ImportFormat = "dreamgym";

export const IMPORT_FORMAT_LABELS: Record<ImportFormat, string> = {
  dreamgym: "DreamGym JSONL",
  agenttraj: "AgentGym AgentTraj (conversations)",
  webarena: "WebArena-style traces",
  auto: "detect from the file",
};

const CONVERTERS: Record<
  Exclude<ConcreteImportFormat, "dreamgym">,
  (text: string, o: ConvertOptions) => Conversion
> = {
  agenttraj: convertAgentTraj,
  webarena: convertWebArena,
};

/**
 * Which format a file is in, from the field names of its first record (only the first 64 KB are looked at), or
 * undefined when none is recognised.
 */
export function detectFormat(text: string): ConcreteImportFormat | undefined {
  const head = text.slice(0, 65_536);
  const first = head.search(/"(conversations|intent|steps)"\s*:/);
  if (first < 0) return undefined;
  const field = head.slice(first).match(/^"(\w+)"/)?.[1];
  if (field === "conversations") return "agenttraj";
  if (field === "intent") return "webarena";
  // Both a WebArena trace and our own records may hold "steps": ours name a domain and an instruction.
  if (/"intent"\s*:/.test(head) && !/"instruction"\s*:/.test(head)) return "webarena";
  return "dreamgym";
}

export interface ParsedImportAs extends ParsedImport {
  /** The format the file was read as (the detected one for "auto"). */
  format: ConcreteImportFormat;
}

/**
 * Parses a file in any of the formats into the project's trajectories. Errors carry the line of the source file
 * the bad record starts on (and, for converted formats, which item or trace and which field).
 */
export function parseImportAs(
  text: string,
  format: ImportFormat = DEFAULT_IMPORT_FORMAT,
  options: ConvertOptions = {},
): ParsedImportAs {
  const concrete = format === "auto" ? (detectFormat(text) ?? "dreamgym") : format;
  if (concrete === "dreamgym") {
    const parsed = parseImport(text);
    if (parsed.errors.length > 0 && format === "dreamgym") {
      // A file in another format, imported as ours, is refused line by line; say what it looks like.
      const looks = detectFormat(text);
      if (looks && looks !== "dreamgym") {
        parsed.errors.unshift({
          line: 0,
          message: `the file looks like ${IMPORT_FORMAT_LABELS[looks]}: import it with the format "${looks}" (or "auto")`,
        });
      }
    }
    return { ...parsed, format: concrete };
  }
  const conversion = CONVERTERS[concrete](text, options);
  const errors: ImportError[] = [...conversion.errors];
  const trajectories: ParsedImport["trajectories"] = [];
  for (const record of conversion.records) {
    const checked = checkTrajectory(record.value, record.line);
    if ("message" in checked)
      errors.push({ line: record.line, message: `${record.label}: ${checked.message}` });
    else trajectories.push(checked);
  }
  errors.sort((a, b) => a.line - b.line);
  if (trajectories.length === 0 && errors.length === 0) errors.push({ line: 0, message: EMPTY_FILE });
  return { trajectories, errors, blank: 0, format: concrete };
}

/** The trajectories as the project's JSONL (one per line), e.g. to queue a converted upload for the worker. */
export function toJsonl(parsed: ParsedImport): string {
  return `${parsed.trajectories.map((t) => JSON.stringify(t.data)).join("\n")}\n`;
}
