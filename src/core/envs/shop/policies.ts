/**
 * Reference policies for the shop: the goal-reading expert (offline data, upper bound), uniform random, and the
 * noisy expert in between. All of them are pure functions of (task, history, observation) plus their seed, so one
 * policy object can serve many episodes at once and every decision replays.
 */
import type { Observation, Policy, Step, Task } from "../../types";
import { hashString, Rng } from "../../util/random";
import { getProduct, type Product } from "./catalog";
import { parseShopAction } from "./env";
import { ShopGoal } from "./goal";
import { BUTTON, pageKindOf, SEARCH_TEMPLATE } from "./pages";
import { searchQueries } from "./queries";
import { normalizeOption, tokens } from "./text";

/** Admissible actions with the search template replaced by concrete queries read from the instruction. */
export function candidateActions(task: Task, obs: Observation): string[] {
  const listed = obs.actions ?? [];
  const out = listed.filter((a) => a !== SEARCH_TEMPLATE);
  if (listed.includes(SEARCH_TEMPLATE) || pageKindOf(obs) === "search") {
    for (const q of searchQueries(task.instruction)) out.push(`search[${q}]`);
  }
  return out;
}

const goals = new WeakMap<object, ShopGoal>();

function goalOf(task: Task): ShopGoal {
  const raw = task.goal;
  if (typeof raw === "object" && raw !== null) {
    const hit = goals.get(raw);
    if (hit) return hit;
  }
  const parsed = ShopGoal.safeParse(raw);
  if (!parsed.success)
    throw new Error(`shop expert: task ${task.id} has no usable goal (${parsed.error.message})`);
  if (typeof raw === "object" && raw !== null) goals.set(raw, parsed.data);
  return parsed.data;
}

const NAVIGATION: ReadonlySet<string> = new Set(Object.values(BUTTON));

/** The item the agent is looking at: the last product clicked on a results page. */
function currentItem(history: readonly Step[]): { asin: string; at: number } | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const s = history[i];
    if (!s?.valid) continue;
    const a = parseShopAction(s.action);
    if (a?.kind === "click" && !NAVIGATION.has(a.target) && pageKindOf(s.state) === "results") {
      return { asin: a.target.toUpperCase(), at: i };
    }
  }
  return undefined;
}

/** Options chosen on the current item page since it was opened (later clicks overwrite earlier ones). */
function selectedOptions(history: readonly Step[], from: number, product: Product): Record<string, string> {
  const selected: Record<string, string> = {};
  for (const s of history.slice(from + 1)) {
    if (!s.valid || pageKindOf(s.state) !== "item") continue;
    const a = parseShopAction(s.action);
    if (a?.kind !== "click") continue;
    for (const [type, values] of Object.entries(product.options))
      if (values.includes(a.target)) selected[type] = a.target;
  }
  return selected;
}

function offers(obs: Observation, action: string, textCue: string): boolean {
  return obs.actions ? obs.actions.includes(action) : obs.text.includes(textCue);
}

function expertQueries(goal: ShopGoal, product: Product | undefined, instruction: string): string[] {
  const title = product ? tokens(product.title).join(" ") : "";
  const named = tokens(`${goal.name} ${goal.attributes.join(" ")}`).join(" ");
  return [title, named, ...searchQueries(instruction)].filter((q) => q.length > 0);
}

export function expertAction(task: Task, history: readonly Step[], obs: Observation): string {
  const goal = goalOf(task);
  const product = getProduct(goal.asin);
  const goalId = goal.asin.toLowerCase();
  switch (pageKindOf(obs)) {
    case "search": {
      // Each new visit to the search page tries the next query, in case the last one missed the product.
      const searches = history.filter((s) => s.valid && parseShopAction(s.action)?.kind === "search").length;
      const queries = expertQueries(goal, product, task.instruction);
      return `search[${queries[searches % queries.length]}]`;
    }
    case "results":
      if (offers(obs, `click[${goalId}]`, goal.asin)) return `click[${goalId}]`;
      if (offers(obs, `click[${BUTTON.next}]`, "Next >")) return `click[${BUTTON.next}]`;
      return `click[${BUTTON.backToSearch}]`;
    case "item": {
      const item = currentItem(history);
      if (!product || item?.asin !== goal.asin) return `click[${BUTTON.prev}]`;
      const selected = selectedOptions(history, item.at, product);
      for (const [type, value] of Object.entries(goal.options)) {
        const offered = product.options[type]?.find((v) => normalizeOption(v) === normalizeOption(value));
        if (offered && selected[type] !== offered) return `click[${offered}]`;
      }
      return `click[${BUTTON.buyNow}]`;
    }
    case "description":
    case "features":
      return `click[${BUTTON.prev}]`;
    default:
      return `click[${BUTTON.backToSearch}]`;
  }
}

/** Seeds each decision from the policy seed and the episode so far: parallel-safe and replayable. */
function decisionRng(salt: string, seed: number, task: Task, history: readonly Step[]): Rng {
  return new Rng(hashString(`${salt}|${seed}|${task.id}|${history.map((s) => s.action).join("\u0001")}`));
}

function randomCandidate(rng: Rng, task: Task, obs: Observation): { action: string; logprob: number } {
  const candidates = candidateActions(task, obs);
  if (candidates.length === 0) return { action: `click[${BUTTON.backToSearch}]`, logprob: 0 };
  return { action: rng.pick(candidates), logprob: -Math.log(candidates.length) };
}

export function expertPolicy(): Policy {
  return { act: async (task, history, obs) => ({ action: expertAction(task, history, obs) }) };
}

/** Uniform over candidateActions. Same seed and same task give the same episode: vary the seed per rollout. */
export function randomPolicy(seed: number): Policy {
  return {
    act: async (task, history, obs) => randomCandidate(decisionRng("random", seed, task, history), task, obs),
  };
}

/** The expert, except that with probability epsilon it takes a uniformly random candidate action. */
export function noisyPolicy(seed: number, epsilon: number): Policy {
  if (!(epsilon >= 0 && epsilon <= 1))
    throw new Error(`noisy policy: epsilon must be in [0, 1], got ${epsilon}`);
  return {
    act: async (task, history, obs) => {
      const rng = decisionRng("noisy", seed, task, history);
      if (rng.chance(epsilon)) return { action: randomCandidate(rng, task, obs).action };
      return { action: expertAction(task, history, obs) };
    },
  };
}
