import { parseArgs } from "node:util";
import { getCatalog, getProduct, type Product, type ShopGoal, shop } from "@/core/envs/shop";
import { attributeMatched, isShopSuccess, optionMatched, shopReward } from "@/core/envs/shop/reward";
import { normalizeOption } from "@/core/envs/shop/text";
import {
  type GoalOptionsAs,
  webshopAttributeMatched,
  webshopOptionMatched,
  webshopScore,
} from "@/core/envs/shop/webshopRule";
import { webshopVerdictOf } from "@/core/envs/shop/webshopVerdict";
import { rollout } from "@/core/rollout";
import type { Policy, Task } from "@/core/types";

/**
 * The shop's strict success beside WebShop's own rule (src/core/envs/shop/webshopRule.ts), measured on the shop's
 * own goals (seed tasks of both splits):
 * - wrong options: every other value the goal product offers for a goal option's type, which the strict rule
 *   rejects; the share WebShop's rule accepts, per option type, for the rule as WebShop's get_reward runs it
 *   ("pairs") and as its unit tests call it ("values"); also over every ordered pair of a product's values in the
 *   whole catalog, where each value counts once per product rather than once per goal;
 * - exact options: goal options that buying exactly the asked value fails under WebShop's rule, and goals that
 *   the goal product itself, bought as asked, cannot win;
 * - attributes: (goal attribute, product of the goal's type) pairs on which the two rules disagree;
 * - episodes: strict and WebShop success of the expert and of a noisy expert on test tasks.
 */
export async function webshopRuleBench(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      train: { type: "string", default: "2000" },
      test: { type: "string", default: "500" },
      episodes: { type: "string", default: "300" },
    },
  });
  const tasks = [...shop.tasks("train", Number(values.train)), ...shop.tasks("test", Number(values.test))];
  const goals = tasks.map((t) => t.goal as ShopGoal);
  const results = {
    goals: goals.length,
    wrongOptions: wrongOptions(goals),
    wrongOptionsCatalog: wrongOptionsCatalog(),
    exactOptions: exactOptions(goals),
    attributes: attributes(goals),
    episodes: await episodes(shop.tasks("test", Number(values.episodes))),
  };
  process.stderr.write(`${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify({ bench: "webshop-rule", ...results })}\n`);
}

interface Share {
  rejectedByStrict: number;
  acceptedByWebshop: number;
  share: number;
}

type Tally = Record<string, Record<GoalOptionsAs, Share>>;

const READINGS: readonly GoalOptionsAs[] = ["pairs", "values"];

function count(tally: Tally, type: string, accepted: Record<GoalOptionsAs, boolean>) {
  for (const key of [type, "all"]) {
    tally[key] ??= {
      pairs: { rejectedByStrict: 0, acceptedByWebshop: 0, share: 0 },
      values: { rejectedByStrict: 0, acceptedByWebshop: 0, share: 0 },
    };
    for (const reading of READINGS) {
      const s = tally[key]![reading];
      s.rejectedByStrict += 1;
      if (accepted[reading]) s.acceptedByWebshop += 1;
      s.share = round(s.acceptedByWebshop / s.rejectedByStrict);
    }
  }
}

/** A wrong value `chosen` for the goal option (type, wanted): strict must reject it; does WebShop accept it? */
function judge(tally: Tally, type: string, wanted: string, chosen: string) {
  if (optionMatched(wanted, [chosen])) throw new Error(`strict accepts "${chosen}" for "${wanted}"`);
  count(tally, type, {
    pairs: webshopOptionMatched(type, wanted, [chosen], "pairs"),
    values: webshopOptionMatched(type, wanted, [chosen], "values"),
  });
}

const offeredOther = (p: Product, type: string, wanted: string) =>
  (p.options[type] ?? []).filter((v) => normalizeOption(v) !== normalizeOption(wanted));

function wrongOptions(goals: readonly ShopGoal[]): Tally {
  const tally: Tally = {};
  for (const goal of goals) {
    const product = getProduct(goal.asin)!;
    for (const [type, wanted] of Object.entries(goal.options)) {
      for (const chosen of offeredOther(product, type, wanted)) judge(tally, type, wanted, chosen);
    }
  }
  return tally;
}

function wrongOptionsCatalog(): Tally {
  const tally: Tally = {};
  for (const product of getCatalog().products) {
    for (const [type, offered] of Object.entries(product.options)) {
      for (const wanted of offered) {
        for (const chosen of offeredOther(product, type, wanted)) judge(tally, type, wanted, chosen);
      }
    }
  }
  return tally;
}

function exactOptions(goals: readonly ShopGoal[]) {
  let options = 0;
  let failed = 0;
  let goalsWithOptions = 0;
  let unwinnable = 0;
  const examples = new Set<string>();
  for (const goal of goals) {
    const entries = Object.entries(goal.options);
    if (entries.length > 0) goalsWithOptions += 1;
    for (const [type, value] of entries) {
      options += 1;
      if (!webshopOptionMatched(type, value, [value], "pairs")) {
        failed += 1;
        examples.add(`${type}: ${value}`);
      }
    }
    const product = getProduct(goal.asin)!;
    const strict = shopReward(goal, product, goal.options);
    if (isShopSuccess(strict.reward) && !webshopScore(goal, product, goal.options).success) unwinnable += 1;
  }
  return {
    goalOptions: options,
    failedByWebshop: failed,
    share: round(failed / Math.max(1, options)),
    goalsWithOptions,
    goalsTheGoalProductCannotWin: unwinnable,
    shareOfGoals: round(unwinnable / Math.max(1, goals.length)),
    examples: [...examples].sort(),
  };
}

function attributes(goals: readonly ShopGoal[]) {
  const byType = new Map<string, Product[]>();
  for (const p of getCatalog().products) byType.set(p.productType, [...(byType.get(p.productType) ?? []), p]);
  let pairs = 0;
  let strictOnly = 0;
  let webshopOnly = 0;
  const strictOnlyExamples = new Set<string>();
  for (const goal of goals) {
    for (const attribute of goal.attributes) {
      for (const p of byType.get(goal.productType) ?? []) {
        pairs += 1;
        const strict = attributeMatched(attribute, p);
        const webshop = webshopAttributeMatched(attribute, p);
        if (strict && !webshop) {
          strictOnly += 1;
          if (strictOnlyExamples.size < 5) strictOnlyExamples.add(`"${attribute}" in ${p.asin}: ${p.title}`);
        }
        if (webshop && !strict) webshopOnly += 1;
      }
    }
  }
  return {
    pairs,
    acceptedOnlyByStrict: strictOnly,
    acceptedOnlyByWebshop: webshopOnly,
    strictOnlyExamples: [...strictOnlyExamples],
  };
}

async function episodes(tasks: readonly Task[]) {
  const policies: Record<string, (i: number) => Policy> = {
    expert: () => shop.expert(),
    "noisy 0.3": (i) => shop.noisy(i, 0.3),
  };
  const out: Record<string, unknown> = {};
  for (const [name, policyFor] of Object.entries(policies)) {
    let strict = 0;
    let webshop = 0;
    let strictOnly = 0;
    let webshopOnly = 0;
    const strictOnlyTasks: string[] = [];
    for (const [i, task] of tasks.entries()) {
      const e = await rollout(shop.createEnvironment(), policyFor(i), task, shop.maxSteps);
      const verdict = webshopVerdictOf(e.infos[e.infos.length - 1]);
      if (!verdict) throw new Error(`episode on ${task.id} ended without WebShop's verdict`);
      if (e.success) strict += 1;
      if (verdict.success) webshop += 1;
      if (e.success && !verdict.success) {
        strictOnly += 1;
        if (strictOnlyTasks.length < 5) strictOnlyTasks.push(task.id);
      }
      if (verdict.success && !e.success) webshopOnly += 1;
    }
    out[name] = {
      episodes: tasks.length,
      successRate: round(strict / tasks.length),
      webshopSuccessRate: round(webshop / tasks.length),
      successOnlyStrict: strictOnly,
      successOnlyWebshop: webshopOnly,
      strictOnlyTasks,
    };
  }
  return out;
}

const round = (x: number) => Number(x.toFixed(4));
