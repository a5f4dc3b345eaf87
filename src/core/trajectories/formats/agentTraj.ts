import { isRealDomainName } from "../../envs/names";
import { SPLITS, type Split } from "../../types";
import { domainName, isObject, outcomeOf, readRecords } from "./records";
import type { Conversion, ConvertedRecord, ConvertOptions } from "./types";

/**
 * AgentGym's AgentTraj (AgentTraj-L and the evaluation logs of AgentGym): a JSON array (or JSONL) of items
 * `{item_id, conversations: [{from: "human" | "gpt", value, loss?}], reward?, success?}`. README "Importing
 * trajectories" lists what maps where and what is dropped.
 *
 * - The human turns before the first acting gpt turn are the prompt; the last of them is the first state. A gpt
 *   turn marked `loss: false` is part of the prompt (the "OK" that acknowledges the instructions); so is, in a log
 *   without loss marks, a gpt turn before the first one that says "Action:".
 * - Each acting gpt turn is a step: the text after the last "Action:" is the action, the text after "Thought:"
 *   (up to "Action:") the reasoning. A turn without "Action:" is an action as a whole.
 * - The human turn(s) after a step are its next state and the next step's state.
 * - The last step is done; its reward is the item's `reward` (or 1/0 from `success`), 0 when the log has none.
 */

const THOUGHT = /^\s*Thought:\s*/i;
const ACTION = /(?:^|\n)\s*Action:\s*/gi;

function hasAction(value: string): boolean {
  return /(?:^|\n)\s*Action:/i.test(value);
}

export function splitThoughtAction(value: string): { action: string; reasoning?: string } {
  const matches = [...value.matchAll(ACTION)];
  const last = matches[matches.length - 1];
  if (!last || last.index === undefined) return { action: value.trim() };
  const action = value.slice(last.index + last[0].length).trim();
  const reasoning = value.slice(0, last.index).replace(THOUGHT, "").trim();
  return reasoning ? { action, reasoning } : { action };
}

/** The task, where AgentGym's environments write it into the first observation; else the observation itself. */
export function instructionOf(observation: string): string {
  const patterns = [
    /Your task is to:\s*([^\n]+)/i, // ALFWorld
    /Instruction:\s*\[SEP\]\s*([^[\n]+?)\s*\[SEP\]/i, // WebShop
    /(?:Instruction|Task|Goal):\s*([^\n]+)/i,
  ];
  for (const pattern of patterns) {
    const found = observation.match(pattern)?.[1]?.trim();
    if (found) return found;
  }
  return observation.trim();
}

/** `webshop_12` → `webshop`; a built-in domain's name gets a prefix, so logs never mix with its environment. */
function domainOfItem(itemId: string): string {
  const name = domainName(itemId.replace(/[_-]?\d+$/, ""));
  return isRealDomainName(name) ? `agentgym-${name}` : name;
}

interface Turn {
  from: "human" | "gpt";
  value: string;
  loss?: boolean;
}

function convertItem(
  value: unknown,
  options: ConvertOptions,
): { value: Record<string, unknown>; itemId?: string } | { error: string; itemId?: string } {
  if (!isObject(value)) return { error: "(item): must be an object with item_id and conversations" };
  const itemId = value.item_id;
  if (typeof itemId !== "string" && typeof itemId !== "number") {
    return { error: "item_id: missing (a string or a number)" };
  }
  const id = String(itemId);
  const fail = (error: string) => ({ error, itemId: id });
  if (!Array.isArray(value.conversations)) return fail("conversations: missing (an array of turns)");
  const turns: Turn[] = [];
  for (const [i, turn] of value.conversations.entries()) {
    if (!isObject(turn)) return fail(`conversations[${i}]: must be an object {from, value}`);
    if (turn.from !== "human" && turn.from !== "gpt") {
      return fail(`conversations[${i}].from: must be "human" or "gpt"`);
    }
    if (typeof turn.value !== "string") return fail(`conversations[${i}].value: must be a string`);
    if (turn.loss !== undefined && turn.loss !== null && typeof turn.loss !== "boolean") {
      return fail(`conversations[${i}].loss: must be a boolean`);
    }
    turns.push({
      from: turn.from,
      value: turn.value,
      ...(typeof turn.loss === "boolean" ? { loss: turn.loss } : {}),
    });
  }

  // Without loss marks (AgentInstruct-style logs), the gpt turns before the first one with "Action:" are the
  // prompt's acknowledgements too, when the log marks actions at all.
  const marked = turns.some((t) => t.from === "gpt" && hasAction(t.value));
  const firstAct = turns.findIndex(
    (t) => t.from === "gpt" && t.loss !== false && (!marked || hasAction(t.value)),
  );
  if (firstAct < 0)
    return fail("conversations: no gpt turn that acts (every gpt turn has loss: false, or none)");
  const prompt = turns.slice(0, firstAct).filter((t) => t.from === "human");
  const first = prompt[prompt.length - 1];
  if (!first || first.value.trim() === "") {
    return fail(`conversations[${firstAct}]: the first action has no human turn (observation) before it`);
  }

  // Walk the acting part: gpt turns are steps, the human turns between them observations.
  const steps: { state: string; action: string; reasoning?: string; next: string[] }[] = [];
  let state = first.value;
  for (let i = firstAct; i < turns.length; i++) {
    const turn = turns[i] as Turn;
    if (turn.from === "gpt") {
      const previous = steps[steps.length - 1];
      if (previous && previous.next.length === 0) {
        return fail(
          `conversations[${i}]: two gpt turns in a row (no observation after the action before it)`,
        );
      }
      if (previous) state = previous.next.join("\n\n");
      const { action, reasoning } = splitThoughtAction(turn.value);
      if (!action) return fail(`conversations[${i}].value: no action (nothing after "Action:")`);
      steps.push({ state, action, ...(reasoning ? { reasoning } : {}), next: [] });
    } else {
      (steps[steps.length - 1] as (typeof steps)[number]).next.push(turn.value);
    }
  }

  const outcome = outcomeOf(value);
  if (outcome.error) return fail(outcome.error);
  const reward = outcome.reward ?? (outcome.success ? 1 : 0);
  const split = SPLITS.includes(value.split as Split) ? (value.split as Split) : (options.split ?? "train");
  const domain = options.domain ?? domainOfItem(id);
  return {
    itemId: id,
    value: {
      domain,
      instruction:
        typeof value.instruction === "string" && value.instruction
          ? value.instruction
          : instructionOf(first.value),
      task_id: `${domain}:${id}`,
      split,
      source: "offline",
      policy: "agenttraj",
      steps: steps.map((s, i) => {
        const last = i === steps.length - 1;
        return {
          state: s.state,
          action: s.action,
          ...(s.reasoning ? { reasoning: s.reasoning } : {}),
          next_state: s.next.join("\n\n"),
          reward: last ? reward : 0,
          done: last,
          ...(last && outcome.success !== undefined ? { success: outcome.success } : {}),
        };
      }),
    },
  };
}

export function convertAgentTraj(text: string, options: ConvertOptions = {}): Conversion {
  const read = readRecords(text);
  const records: ConvertedRecord[] = [];
  const errors = [...read.errors];
  for (const record of read.records) {
    const converted = convertItem(record.value, options);
    const label = `item ${record.item}${converted.itemId !== undefined ? ` (item_id ${JSON.stringify(converted.itemId)})` : ""}`;
    if ("error" in converted) errors.push({ line: record.line, message: `${label}: ${converted.error}` });
    else records.push({ line: record.line, label, value: converted.value });
  }
  return { records, errors };
}
