import { SPLITS, type Split } from "../../types";
import { domainName, isObject, outcomeOf, readRecords } from "./records";
import type { Conversion, ConvertedRecord, ConvertOptions } from "./types";

/**
 * A WebArena-style trace: one JSON object per task (JSONL, a JSON array, or a single object), with `task_id`,
 * `intent` (the instruction), a list of `{observation, action}` pairs under `trajectory` (or `steps`), and an
 * optional outcome: `reward`, `success`, or `evaluation` (a number, a boolean, or `{score | reward | success}`).
 * README "Importing trajectories" lists what maps where and what is dropped.
 *
 * Each pair is a step: its observation is the state, the next pair's observation its next state (the last
 * step's is the trace's `final_observation`, or empty). A pair may carry `reasoning` (or `thought`) and
 * `admissible_actions`. The last step is done, with the trace's reward (or 1/0 from success; 0 when none).
 */

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function convertTrace(
  value: unknown,
  options: ConvertOptions,
): { value: Record<string, unknown>; taskId?: string } | { error: string; taskId?: string } {
  if (!isObject(value)) return { error: "(trace): must be an object with task_id, intent and trajectory" };
  const rawId = value.task_id;
  if (typeof rawId !== "string" && typeof rawId !== "number") {
    return { error: "task_id: missing (a string or a number)" };
  }
  const taskId = String(rawId);
  const fail = (error: string) => ({ error, taskId });
  const intent = text(value.intent);
  if (!intent?.trim()) return fail("intent: missing (the task's instruction, a non-empty string)");
  const listKey = Array.isArray(value.trajectory) ? "trajectory" : "steps";
  const pairs = value[listKey];
  if (!Array.isArray(pairs)) return fail("trajectory: missing (a list of {observation, action})");
  if (pairs.length === 0) return fail(`${listKey}: empty (a trace needs at least one step)`);
  for (const [i, pair] of pairs.entries()) {
    const where = `${listKey}[${i}]`;
    if (!isObject(pair)) return fail(`${where}: must be an object {observation, action}`);
    if (!text(pair.observation)?.trim()) return fail(`${where}.observation: missing (a non-empty string)`);
    if (!text(pair.action)?.trim()) return fail(`${where}.action: missing (a string such as "click [123]")`);
    const admissible = pair.admissible_actions;
    if (
      admissible !== undefined &&
      !(Array.isArray(admissible) && admissible.every((a) => typeof a === "string"))
    ) {
      return fail(`${where}.admissible_actions: must be a list of strings`);
    }
  }
  const final = value.final_observation;
  if (final !== undefined && typeof final !== "string") return fail("final_observation: must be a string");
  const outcome = outcomeOf(value);
  if (outcome.error) return fail(outcome.error);
  const reward = outcome.reward ?? (outcome.success ? 1 : 0);
  const split = SPLITS.includes(value.split as Split) ? (value.split as Split) : (options.split ?? "train");
  const domain = options.domain ?? (typeof value.domain === "string" ? domainName(value.domain) : "web");
  const steps = (pairs as Record<string, unknown>[]).map((pair, i) => {
    const last = i === pairs.length - 1;
    const next = last ? (final ?? "") : ((pairs[i + 1] as Record<string, unknown>).observation as string);
    const reasoning = text(pair.reasoning) ?? text(pair.thought);
    return {
      state: pair.observation as string,
      ...(Array.isArray(pair.admissible_actions) ? { admissible_actions: pair.admissible_actions } : {}),
      action: (pair.action as string).trim(),
      ...(reasoning?.trim() ? { reasoning: reasoning.trim() } : {}),
      next_state: next,
      reward: last ? reward : 0,
      done: last,
      ...(last && outcome.success !== undefined ? { success: outcome.success } : {}),
    };
  });
  return {
    taskId,
    value: {
      domain,
      instruction: intent.trim(),
      task_id: `${domain}:${taskId}`,
      split,
      source: "offline",
      policy: "webarena",
      steps,
    },
  };
}

export function convertWebArena(text: string, options: ConvertOptions = {}): Conversion {
  const read = readRecords(text);
  const records: ConvertedRecord[] = [];
  const errors = [...read.errors];
  for (const record of read.records) {
    const converted = convertTrace(record.value, options);
    const label = `trace ${record.item}${converted.taskId !== undefined ? ` (task_id ${JSON.stringify(converted.taskId)})` : ""}`;
    if ("error" in converted) errors.push({ line: record.line, message: `${label}: ${converted.error}` });
    else records.push({ line: record.line, label, value: converted.value });
  }
  return { records, errors };
}
