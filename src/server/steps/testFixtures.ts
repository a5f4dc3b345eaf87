import type { Db } from "../db";

/**
 * A small world for the researcher's procedures: an offline episode (the replay buffer) and a run whose
 * synthetic episodes cite its steps as demonstrations, with the real environment's answers beside the
 * predictions; one prediction is faithful, one invents a product and a reward.
 */
export async function seedResearcherWorld(db: Db) {
  await db.task.create({
    data: { id: "shop:1", domain: "shop", instruction: "buy a red mug under 20 dollars" },
  });
  await db.task.create({ data: { id: "shop:2", domain: "shop", instruction: "buy blue socks" } });
  const run = await db.run.create({
    data: { name: "fixture run", method: "dreamgym", domain: "shop", algorithm: "grpo", config: {} },
  });
  const offline = await db.trajectory.create({
    data: {
      taskId: "shop:1",
      domain: "shop",
      source: "offline",
      policy: "expert",
      length: 1,
      createdAt: new Date("2025-01-01T00:00:00Z"),
      steps: {
        create: [
          {
            index: 0,
            state: "Search",
            action: "search[red mug]",
            nextState: "Results [SEP] Red Mug [SEP] $12.00",
            reward: 0,
            done: false,
          },
        ],
      },
    },
    include: { steps: true },
  });
  const demonstrationId = offline.steps[0]?.id as string;
  const synthetic = await db.trajectory.create({
    data: {
      taskId: "shop:1",
      domain: "shop",
      source: "synthetic",
      policy: "linear@iter0",
      runId: run.id,
      iteration: 0,
      group: 0,
      length: 2,
      createdAt: new Date("2025-01-02T00:00:00Z"),
      steps: {
        create: [
          {
            index: 0,
            state: "Search",
            action: "search[red mug]",
            reasoning: "Demonstration 1 searched for a red mug and saw results.",
            nextState: "Results [SEP] Red Mug [SEP] $12.00",
            reward: 0,
            done: false,
            realNextState: "Results [SEP] Red Mug [SEP] $12.00",
            realReward: 0,
            realDone: false,
            realValid: true,
            neighbourIds: [demonstrationId, "gone-step"],
          },
          {
            index: 1,
            state: "Results [SEP] Red Mug [SEP] $12.00",
            action: "click[Red Mug]",
            reasoning: "Clicking a product opens its page.",
            nextState: "Red Mug [SEP] Price: $12.00 [SEP] Golden Teapot [SEP] Buy Now",
            reward: 1,
            done: true,
            realNextState: "Red Mug [SEP] Price: $12.00 [SEP] Buy Now",
            realReward: 0,
            realDone: false,
            realValid: true,
            neighbourIds: [demonstrationId],
          },
        ],
      },
    },
    include: { steps: { orderBy: { index: "asc" } } },
  });
  const later = await db.trajectory.create({
    data: {
      taskId: "shop:2",
      domain: "shop",
      source: "synthetic",
      policy: "linear@iter1",
      runId: run.id,
      iteration: 1,
      group: 0,
      length: 1,
      success: true,
      createdAt: new Date("2025-01-03T00:00:00Z"),
      steps: {
        create: [
          {
            index: 0,
            state: "Search",
            action: "search[blue socks]",
            nextState: "Results [SEP] Blue Socks",
            reward: 0,
            done: false,
          },
        ],
      },
    },
  });
  return {
    runId: run.id,
    offlineId: offline.id,
    demonstrationId,
    syntheticId: synthetic.id,
    faithfulStepId: synthetic.steps[0]?.id as string,
    hallucinatedStepId: synthetic.steps[1]?.id as string,
    laterId: later.id,
  };
}
