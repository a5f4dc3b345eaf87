/**
 * Everything about a decision that does not depend on the candidate, computed once per act(): the instruction's
 * words, the page or room as the policy reads it, and a summary of the episode so far (what was done, where the
 * agent went, where it saw what the task asks for). Features of each candidate are then cheap lookups.
 */
import type { Observation, Step, Task } from "../types";
import { type ParsedAction, parseAction } from "./action";
import { combine, tokenHash } from "./hashing";
import { budgetOf, contentTokens, entities, entityClass, isContentToken, tokenize } from "./text";

/** Instruction words used in crosses with action words; more would only add rarely-seen features. */
const MAX_INSTRUCTION_TOKENS = 12;
/** Words of the state's first line that describe it ("closed", "nothing", "results"); the rest is content. */
const MAX_STATE_TOKENS = 12;
/** Characters of the state's first line read for its describing words. */
const STATE_PREFIX_CHARS = 300;
/** "key: value" pairs of a state that enter its phase (location, holding, selected options...). */
const MAX_STATE_FIELDS = 6;

export interface InstructionView {
  tokens: string[];
  set: ReadonlySet<string>;
  hashes: number[];
  /** All tokens, stopwords included, as " a b c ": "x small" is in it, and so is "small". */
  padded: string;
  budget: number | undefined;
}

const instructionMemo = new Map<string, InstructionView>();

export function readInstruction(instruction: string): InstructionView {
  const hit = instructionMemo.get(instruction);
  if (hit) return hit;
  if (instructionMemo.size > 20_000) instructionMemo.clear();
  const tokens = contentTokens(instruction).slice(0, MAX_INSTRUCTION_TOKENS);
  const view = {
    tokens,
    set: new Set(tokens),
    hashes: tokens.map(tokenHash),
    padded: ` ${tokenize(instruction).join(" ")} `,
    budget: budgetOf(instruction),
  };
  instructionMemo.set(instruction, view);
  return view;
}

/** What one earlier step contributes, independent of the task: parsed once per Step object. */
interface StepView {
  action: ParsedAction;
  valid: boolean;
  /** The entities the step's outcome names, the first one being where it happened ("You open the cabinet 2"). */
  outcomeEntities: string[];
}

const stepMemo = new WeakMap<Step, StepView>();

function readStep(step: Step): StepView {
  const hit = stepMemo.get(step);
  if (hit) return hit;
  const text = step.next.text;
  const newline = text.indexOf("\n");
  const view = {
    action: parseAction(step.action),
    valid: step.valid,
    outcomeEntities: entities(newline < 0 ? text : text.slice(0, newline)),
  };
  stepMemo.set(step, view);
  return view;
}

export interface DecisionContext {
  instruction: InstructionView;
  /** Index of this decision in its episode (0-based). */
  step: number;
  stateLower: string;
  /** Page segments (" [SEP] "-separated) mapped to the text that follows them: a product code -> its title, price. */
  segmentFollowers: Map<string, string>;
  /** Lines of the state by their first word: a tool's answer puts a record's id first and describes it after. */
  records: Map<string, string>;
  /** Share of the instruction's words the state shows (the instruction itself left out), in fifths. */
  stateCoverage: number;
  /** How many of the instruction's words the state does not show (an asked-for colour this item lacks). */
  missing: number;
  /** Hashes of the words describing the state, instruction words excluded. */
  stateWordHashes: number[];
  /** One hash for the situation: the state's fields (holding what, which options) and what was done so far. */
  phase: number;
  /** Values of the state's "key: value" fields ("bread 2", "rosewood"): what is already held or selected. */
  fieldValues: string[];
  /** How often each action (by key) was taken earlier in the episode. */
  actionCounts: Map<string, number>;
  last: { action: ParsedAction; valid: boolean } | undefined;
  /** Entities named by earlier actions: places visited, things handled. */
  visited: Set<string>;
  /** For each entity named by earlier valid actions, a hash of the set of verbs applied to it ({go to, open}). */
  handledBy: Map<string, number>;
  /** Places where an earlier observation showed something the instruction names ("you see a bread 2"). */
  sightings: Set<string>;
}

/** Classifies a field's value: empty, names something in the instruction, or something else. */
function fieldClass(value: string, instruction: InstructionView): number {
  const words = tokenize(value);
  if (words.length === 0 || (words.length === 1 && (words[0] === "nothing" || words[0] === "none"))) return 0;
  return words.some((w) => instruction.set.has(w)) ? 1 : 2;
}

/** The state's "key: value" fields, and a hash of the situation they and the verbs done so far describe. */
function readFields(
  stateLower: string,
  instruction: InstructionView,
  done: ReadonlySet<string>,
): { phase: number; values: string[] } {
  let h = 0x5eed;
  const values: string[] = [];
  for (const m of stateLower.matchAll(/([a-z]+):\s*([^|[\]\n;:]*)/g)) {
    if (values.length >= MAX_STATE_FIELDS) break;
    const value = (m[2] ?? "").trim();
    values.push(value);
    h = combine(combine(h, tokenHash(m[1] ?? "")), fieldClass(value, instruction));
  }
  // Sorted, so the phase does not depend on the order things were done in.
  for (const verb of [...done].sort()) h = combine(h, tokenHash(verb));
  return { phase: h, values };
}

function segmentFollowers(stateLower: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!stateLower.includes("[sep]")) return out;
  const parts = stateLower.split(/\s*\[sep\]\s*/);
  for (let i = 0; i + 1 < parts.length; i++) {
    const key = parts[i] ?? "";
    if (!out.has(key)) out.set(key, `${parts[i + 1] ?? ""} ${parts[i + 2] ?? ""}`);
  }
  return out;
}

/** Each line's first word (trailing punctuation dropped) mapped to the rest of the line; the first line wins. */
function lineRecords(stateLower: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of stateLower.split("\n")) {
    const match = /^\s*(\S+?)[|,:;]*\s+(.*)$/.exec(line);
    const key = match?.[1];
    if (key !== undefined && !out.has(key)) out.set(key, match?.[2] ?? "");
  }
  return out;
}

export function buildContext(
  task: Task,
  history: readonly Step[],
  observation: Observation,
): DecisionContext {
  const instruction = readInstruction(task.instruction);
  const stateLower = observation.text.toLowerCase();
  // Pages repeat the instruction in their header; what the state shows besides it is what counts.
  const rest = stateLower.split(task.instruction.toLowerCase()).join(" ");
  const shown = new Set(tokenize(rest));
  let covered = 0;
  for (const w of instruction.tokens) if (shown.has(w)) covered++;
  const stateCoverage =
    instruction.tokens.length === 0 ? 0 : Math.round((5 * covered) / instruction.tokens.length);
  const newline = rest.indexOf("\n");
  // The words that describe a state come first ("You arrive at ...", "Page 1 (Total results"); a prefix is enough.
  const firstLine = rest.slice(0, Math.min(newline < 0 ? rest.length : newline, STATE_PREFIX_CHARS));
  const stateWordHashes: number[] = [];
  const seenWords = new Set<string>();
  for (const w of tokenize(firstLine)) {
    if (stateWordHashes.length >= MAX_STATE_TOKENS) break;
    if (!isContentToken(w) || instruction.set.has(w) || seenWords.has(w)) continue;
    seenWords.add(w);
    stateWordHashes.push(tokenHash(w));
  }

  const actionCounts = new Map<string, number>();
  const visited = new Set<string>();
  const sightings = new Set<string>();
  const done = new Set<string>();
  const verbsOf = new Map<string, Set<string>>();
  let last: DecisionContext["last"];
  for (const step of history) {
    const view = readStep(step);
    const a = view.action;
    actionCounts.set(a.key, (actionCounts.get(a.key) ?? 0) + 1);
    last = { action: a, valid: view.valid };
    if (!view.valid) continue;
    for (const e of a.entities) {
      visited.add(e);
      const verbs = verbsOf.get(e) ?? new Set<string>();
      verbs.add(a.verb);
      verbsOf.set(e, verbs);
    }
    // A verb that acted on something the task names ("take bread 2", "heat bread 2", "click[rosewood]") marks
    // progress; the set of such verbs tells the stages of a task apart.
    if (a.content.some((w) => instruction.set.has(w))) done.add(a.verb);
    const [where, ...others] = view.outcomeEntities;
    if (where !== undefined && others.some((e) => e !== where && instruction.set.has(entityClass(e))))
      sightings.add(where);
  }

  const fields = readFields(stateLower, instruction, done);
  const handledBy = new Map<string, number>();
  for (const [e, verbs] of verbsOf) {
    let h = 0x7e4b5;
    for (const verb of [...verbs].sort()) h = combine(h, tokenHash(verb));
    handledBy.set(e, h);
  }
  return {
    instruction,
    step: history.length,
    stateLower,
    segmentFollowers: segmentFollowers(stateLower),
    records: lineRecords(stateLower),
    stateCoverage,
    missing: instruction.tokens.length - covered,
    stateWordHashes,
    phase: fields.phase,
    fieldValues: fields.values,
    actionCounts,
    last,
    visited,
    handledBy,
    sightings,
  };
}
