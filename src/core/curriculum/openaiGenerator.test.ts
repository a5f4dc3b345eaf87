import { afterEach, describe, expect, it } from "vitest";
import {
  type FakeHandler,
  type FakeOpenAI,
  malformed,
  okJson,
  script,
  serverError,
  startFakeOpenAI,
} from "../../../tests/helpers/fakeOpenAIServer";
import { HouseholdGoal, household } from "../envs/household";
import { playEpisode } from "../envs/household/testing";
import { getCatalog, isTestGoalProduct, ShopEnvironment, ShopGoal, shop } from "../envs/shop";
import { runEpisode } from "../envs/shop/testing";
import { createLlmClient, LlmRequestError } from "../llm";
import { Rng } from "../util/random";
import { variationId } from "./generator";
import { OpenAITaskGenerator } from "./openaiGenerator";

let server: FakeOpenAI | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(handler: FakeHandler, maxRetries = 1) {
  server = await startFakeOpenAI(handler);
  const llm = createLlmClient({
    baseURL: server.url,
    model: "curriculum-model",
    timeoutMs: 2_000,
    maxRetries,
    concurrency: 2,
    backoff: { baseMs: 5, maxMs: 20, retryAfterCapMs: 100 },
  });
  return { server, generator: new OpenAITaskGenerator(llm, { temperature: 0.7 }) };
}

const parent = shop.task("train", 1); // "find me wall mountable tessari soundbar in 2.1 channel style, ..."
const parentGoal = ShopGoal.parse(parent.goal);
/** Goals a good model would write: another option value, a tighter budget, another soundbar. */
const sibling = getCatalog()
  .goalPool("train")
  .find((p) => p.productType === parentGoal.productType && p.asin !== parentGoal.asin);
if (!sibling) throw new Error("the catalog has no second train soundbar");
const optionType = Object.keys(parentGoal.options)[0] ?? "";
const otherValue = getCatalog()
  .byAsin.get(parentGoal.asin)
  ?.options[optionType]?.find((v) => v !== parentGoal.options[optionType]);
const goodGoals = [
  { ...parentGoal, options: { [optionType]: otherValue } },
  { ...parentGoal, priceUpper: parentGoal.priceUpper + 20 },
  {
    asin: sibling.asin,
    name: sibling.name,
    brand: sibling.brand,
    productType: sibling.productType,
    category: sibling.category,
    subcategory: sibling.subcategory,
    attributes: sibling.attributes.slice(0, 2),
    options: {},
    priceUpper: 10 * Math.ceil(sibling.price / 10 + 0.01),
    mentionBrand: false,
  },
];

describe("OpenAITaskGenerator (shop)", () => {
  it("turns a good reply into valid, scorable variations with lineage", async () => {
    const { server, generator } = await setup(script(okJson({ goals: goodGoals })));
    const report = await generator.generate(parent, 3, new Rng(1));
    expect(report.dropped).toEqual([]);
    expect(report.tasks).toHaveLength(3);
    expect(report).toMatchObject({
      parentId: parent.id,
      requested: 3,
      repaired: false,
      model: "openai:curriculum-model",
    });
    for (const [i, task] of report.tasks.entries()) {
      expect(task).toMatchObject({
        id: variationId(parent, ShopGoal.parse(goodGoals[i])),
        domain: "shop",
        split: "train",
        origin: "generated",
        parentId: parent.id,
        generation: 1,
      });
      const { last } = await runEpisode(new ShopEnvironment(), shop.expert(), task);
      expect(last.reward, task.instruction).toBe(1);
    }
    expect(generator.name).toBe("openai:curriculum-model");
    expect(generator.stats()).toEqual({ calls: 1, proposed: 3, accepted: 3, dropped: 0, unusableReplies: 0 });

    // The prompt carries the seed instruction and goal, the constraints, the products to choose from, the count.
    const body = server.requests[0]?.body;
    expect(body?.response_format?.type).toBe("json_object");
    expect(body?.temperature).toBe(0.7);
    const user = String(body?.messages?.[1]?.content);
    expect(user).toContain(`instruction: ${parent.instruction}`);
    expect(user).toContain(`goal: ${JSON.stringify(parentGoal)}`);
    expect(user).toContain(`"asin":"${parentGoal.asin}"`);
    expect(user).toMatch(/priceUpper: a multiple of 10/);
    expect(user).toContain('3 variations of the seed task, as 3 complete goals in {"goals": [...]}');
    expect(String(body?.messages?.[0]?.content)).toMatch(/keeps the seed task's action types/);
  });

  it("drops invalid goals with their reasons and keeps the rest", async () => {
    const testProduct = getCatalog().products.find(
      (p) => isTestGoalProduct(p.asin) && p.productType === parentGoal.productType,
    );
    if (!testProduct) throw new Error("no held-out soundbar");
    const reply = [
      goodGoals[0],
      { ...parentGoal, options: { [optionType]: "7.1 channel dolby atmos" } }, // not offered
      { ...parentGoal, attributes: [], priceUpper: -5 }, // fails the schema
      parentGoal, // the seed itself
      { ...goodGoals[2], asin: testProduct.asin }, // held-out product (and its identity no longer matches)
      goodGoals[0], // a repeat
      goodGoals[1],
      goodGoals[2], // one more than asked
    ];
    const { generator } = await setup(script(okJson({ goals: reply })));
    const report = await generator.generate(parent, 2, new Rng(1));
    expect(report.tasks.map((t) => ShopGoal.parse(t.goal))).toEqual(
      [goodGoals[0], goodGoals[1]].map((g) => ShopGoal.parse(g)),
    );
    expect(report.dropped.map((d) => d.index)).toEqual([1, 2, 3, 4, 5, 7]);
    const reasons = report.dropped.map((d) => d.reasons.join(" | "));
    expect(reasons[0]).toMatch(/goal\.options\.\S+: "7\.1 channel dolby atmos" is not offered/);
    expect(reasons[1]).toMatch(/goal\.priceUpper/);
    expect(reasons[2]).toMatch(/same goal as the seed task/);
    expect(reasons[3]).toMatch(/does not match product|held out for test goals/);
    expect(reasons[4]).toMatch(/an earlier goal of the reply/);
    expect(reasons[5]).toMatch(/more goals than the 2 asked for/);
    expect(generator.stats()).toMatchObject({ proposed: 8, accepted: 2, dropped: 6 });
  });

  it("repairs a malformed reply once", async () => {
    const { server, generator } = await setup(
      script(malformed("Here you go: goals = [oops"), okJson({ goals: goodGoals.slice(0, 2) })),
    );
    const report = await generator.generate(parent, 2, new Rng(1));
    expect(report.repaired).toBe(true);
    expect(report.tasks).toHaveLength(2);
    expect(report.raws[0]).toBe("Here you go: goals = [oops");
    expect(server.requests).toHaveLength(2);
    const repair = String(server.requests[1]?.body.messages?.at(-1)?.content);
    expect(repair).toMatch(
      /^Your reply could not be used: .+ Reply again with only the JSON object \{"goals": \[\.\.\.\]\} holding 2 goals\.$/,
    );
  });

  it("returns no tasks, and says why, when the repair fails too", async () => {
    const { generator } = await setup(script(malformed("no json"), okJson({ variations: goodGoals })));
    const report = await generator.generate(parent, 2, new Rng(1));
    expect(report.tasks).toEqual([]);
    expect(report.replyError).toMatch(/unusable reply after one repair attempt.*goals/);
    expect(await generator.vary(parent, 2, new Rng(1))).toEqual([]);
    expect(generator.stats()).toMatchObject({ calls: 2, unusableReplies: 2, accepted: 0 });
  });

  it("throws LlmRequestError when the endpoint is down, and asks nothing for count 0", async () => {
    const { server, generator } = await setup(script(serverError(503)), 0);
    expect(await generator.vary(parent, 0, new Rng(1))).toEqual([]);
    expect(server.requests).toHaveLength(0);
    await expect(generator.vary(parent, 2, new Rng(1))).rejects.toBeInstanceOf(LlmRequestError);
  });
});

describe("OpenAITaskGenerator (household)", () => {
  const seedTask = household.task("train", 3); // "put a hot bread on diningtable."
  const goal = HouseholdGoal.parse(seedTask.goal);

  it("accepts valid goals the expert solves, drops unsolvable ones and test rooms", async () => {
    const reply = [
      { ...goal, object: "tomato" },
      { ...goal, type: "pick_cool_then_place_in_recep" },
      { ...goal, object: "laptop" }, // not in a kitchen, and cannot be heated
      { ...goal, room: { ...goal.room, seed: 12345 } }, // odd: a test room
      { ...goal, target: "microwave" }, // the heat task's own appliance
      { ...goal, object: "egg", target: "countertop", room: { ...goal.room, seed: 8 } },
    ];
    const { server, generator } = await setup(script(okJson({ goals: reply })));
    const report = await generator.generate(seedTask, 6, new Rng(2));
    expect(report.tasks.map((t) => t.instruction)).toEqual([
      expect.stringMatching(/tomato/),
      expect.stringMatching(/cool/),
      expect.stringMatching(/egg.*countertop/),
    ]);
    expect(report.dropped.map((d) => d.index)).toEqual([2, 3, 4]);
    expect(report.dropped[0]?.reasons.join(" ")).toMatch(/object: a kitchen has no laptop/);
    expect(report.dropped[1]?.reasons.join(" ")).toMatch(/odd seeds are held-out test rooms/);
    expect(report.dropped[2]?.reasons.join(" ")).toMatch(/uses the microwave itself/);
    for (const task of report.tasks) {
      expect(task).toMatchObject({
        origin: "generated",
        parentId: seedTask.id,
        generation: 1,
        split: "train",
      });
      expect((await playEpisode(household.expert(), task)).success, task.instruction).toBe(true);
    }
    const user = String(server.requests[0]?.body.messages?.[1]?.content);
    expect(user).toContain(`goal: ${JSON.stringify(goal)}`);
    expect(user).toContain('room.kind: keep "kitchen"');
    expect(user).toMatch(/pick_heat_then_place_in_recep: .*objects: .*bread/);
  });
});
