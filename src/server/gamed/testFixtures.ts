import type { Db } from "../db";

/** One synthetic step: the prediction, and the real answer (absent where the real replay had ended). */
export interface StepSpec {
  next: string;
  /** The predicted page's admissible actions, where the domain lists them. */
  actions?: string[];
  reward: number;
  done?: boolean;
  valid?: boolean;
  real?: { next: string; reward: number; done?: boolean; valid?: boolean };
}

export interface EpisodeSpec {
  runId: string;
  taskId: string;
  domain?: string;
  iteration: number;
  group?: number;
  success: boolean;
  steps: StepSpec[];
}

/** Stores a synthetic episode the way a run's rollouts are stored, its return the sum of predicted rewards. */
export async function addSyntheticEpisode(db: Db, spec: EpisodeSpec): Promise<string> {
  const trajectory = await db.trajectory.create({
    data: {
      taskId: spec.taskId,
      domain: spec.domain ?? "shop",
      source: "synthetic",
      purpose: "train",
      policy: `linear@it${spec.iteration}`,
      runId: spec.runId,
      iteration: spec.iteration,
      group: spec.group ?? 0,
      totalReward: spec.steps.reduce((sum, s) => sum + s.reward, 0),
      success: spec.success,
      length: spec.steps.length,
      steps: {
        create: spec.steps.map((s, index) => ({
          index,
          state: index === 0 ? "Search" : `page ${index}`,
          action: `action ${index}`,
          nextState: s.next,
          ...(s.actions ? { nextActions: s.actions } : {}),
          reward: s.reward,
          done: s.done ?? false,
          valid: s.valid ?? true,
          ...(s.real
            ? {
                realNextState: s.real.next,
                realReward: s.real.reward,
                realDone: s.real.done ?? false,
                realValid: s.real.valid ?? true,
              }
            : {}),
        })),
      },
    },
  });
  return trajectory.id;
}

const same = (next: string, reward = 0, done = false) => ({
  next,
  reward,
  done,
  real: { next, reward, done },
});

/**
 * A DreamGym run whose synthetic episodes cover every way the model and the real environment part, a second run
 * (household) to filter across runs, and a real-env run with no synthetic rollouts at all.
 */
export async function seedGamedWorld(db: Db) {
  await db.task.createMany({
    data: [
      { id: "shop:1", domain: "shop", instruction: "buy a red mug under 20 dollars" },
      { id: "shop:2", domain: "shop", instruction: "buy blue socks" },
      {
        id: "imported:1",
        domain: "shop",
        instruction: "an imported task without a goal",
        origin: "imported",
      },
      { id: "household:1", domain: "household", instruction: "put a clean mug in the cabinet" },
    ],
  });
  const run = await db.run.create({
    data: { name: "gamed run", method: "dreamgym", domain: "shop", algorithm: "grpo", config: {} },
  });
  const other = await db.run.create({
    data: { name: "household run", method: "dreamgym", domain: "household", algorithm: "grpo", config: {} },
  });
  const real = await db.run.create({
    data: { name: "real-env run", method: "real", domain: "shop", algorithm: "grpo", config: {} },
  });

  // Gamed: the model invents a product page and pays for the purchase; the real shop pays nothing at step 2.
  const gamed = await addSyntheticEpisode(db, {
    runId: run.id,
    taskId: "shop:1",
    iteration: 1,
    success: true,
    steps: [
      same("Results [SEP] Red Mug [SEP] $12.00"),
      same("Red Mug [SEP] Price: $12.00 [SEP] Buy Now"),
      {
        next: "Thank you for shopping with us! [SEP] Your score [SEP] 1.00",
        reward: 1,
        done: true,
        real: {
          next: "Thank you for shopping with us! [SEP] Your score [SEP] 0.25",
          reward: 0.25,
          done: true,
        },
      },
    ],
  });
  // The real episode ends first: the real shop's purchase at step 1 is over, the model keeps going and pays again.
  const endedFirst = await addSyntheticEpisode(db, {
    runId: run.id,
    taskId: "shop:2",
    iteration: 2,
    success: false,
    steps: [
      same("Results [SEP] Blue Socks"),
      {
        next: "Blue Socks [SEP] Buy Now",
        reward: 0.2,
        real: { next: "Thank you for shopping with us! [SEP] 0.50", reward: 0.5, done: true },
      },
      { next: "Thank you for shopping with us! [SEP] 0.60", reward: 0.6, done: true },
    ],
  });
  // Faithful: the texts differ only in case and spacing, which the step view calls the same page.
  const faithful = await addSyntheticEpisode(db, {
    runId: run.id,
    taskId: "shop:1",
    iteration: 2,
    group: 1,
    success: true,
    steps: [
      { next: "Results [SEP] Red Mug", reward: 0, real: { next: "results  [sep] red mug", reward: 0 } },
      same("Thank you [SEP] 1.00", 1, true),
    ],
  });
  // The real environment refuses the action (invalid there: the page stays, nothing is earned). Its first step
  // differs from the real one in case only: no parting, so the search goes on past it.
  const invalid = await addSyntheticEpisode(db, {
    runId: run.id,
    taskId: "shop:2",
    iteration: 3,
    success: false,
    steps: [
      { next: "Results [SEP] Blue Socks", reward: 0, real: { next: "RESULTS [SEP] blue socks", reward: 0 } },
      {
        next: "Blue Socks [SEP] Size: M",
        reward: 0,
        real: { next: "Results [SEP] Blue Socks", reward: 0, valid: false },
      },
    ],
  });
  // No real answer at all: the task has no goal the real shop could score.
  const unanswered = await addSyntheticEpisode(db, {
    runId: run.id,
    taskId: "imported:1",
    iteration: 1,
    success: true,
    steps: [{ next: "Thank you [SEP] 1.00", reward: 1, done: true }],
  });
  const household = await addSyntheticEpisode(db, {
    runId: other.id,
    taskId: "household:1",
    domain: "household",
    iteration: 1,
    success: true,
    steps: [
      {
        next: "You put the mug in cabinet 1.",
        reward: 1,
        done: true,
        real: { next: "Nothing happens.", reward: 0, valid: false },
      },
    ],
  });
  return {
    runId: run.id,
    householdRunId: other.id,
    realRunId: real.id,
    gamed,
    endedFirst,
    faithful,
    invalid,
    unanswered,
    household,
  };
}
