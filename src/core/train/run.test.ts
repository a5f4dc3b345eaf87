import { describe, expect, it } from "vitest";
import { blindTaskGenerator, trainInstructions } from "../curriculum/blindVariations";
import { embeddedTaskGenerator } from "../curriculum/embedded";
import { household } from "../envs/household";
import { shop } from "../envs/shop";
import { RetrievalExperienceModel } from "../experience/retrieval/retrievalModel";
import type { Task } from "../types";
import { parseRunConfig, type RunMethod } from "./config";
import { experienceSettings } from "./experienceSettings";
import { VALIDATION_OFFSET } from "./heldOut";
import { importedFrom } from "./importedTesting";
import { type IterationReport, type RunResult, runTraining } from "./run";
import { offlineMemoryBuffer } from "./testing";

const offlineBuffer = () => offlineMemoryBuffer(household, 10);

const tiny = (method: RunMethod) =>
  parseRunConfig({
    method,
    domain: "household",
    iterations: 2,
    tasksPerBatch: 2,
    groupSize: 2,
    seedTasks: 10,
    realTransitions: 60,
    demonstrations: 20,
    evaluation: { interval: 1, episodes: 4 },
  });

/** A household run with the embedded experience model and task generator, and every iteration it reported. */
async function runReporting(config: ReturnType<typeof parseRunConfig>) {
  const reports: IterationReport[] = [];
  const result = await runTraining(config, {
    domain: household,
    buffer: await offlineBuffer(),
    model: new RetrievalExperienceModel({ reasoning: true }),
    generator: embeddedTaskGenerator("household"),
    onIteration: (r) => {
      reports.push(r);
    },
  });
  return { result, reports };
}

describe("runTraining", () => {
  it("evaluates on validation tasks when asked, never on a test task, and keeps its seed tasks below them", async () => {
    const evaluated = new Set<string>();
    const spied = {
      ...household,
      createEnvironment: () => {
        const env = household.createEnvironment();
        return {
          ...env,
          domain: env.domain,
          step: env.step.bind(env),
          reset: (task: Task) => {
            evaluated.add(task.id);
            return env.reset(task);
          },
        };
      },
    };
    const config = parseRunConfig({ ...tiny("untrained"), evaluation: { episodes: 3, tasks: "validation" } });
    await runTraining(config, { domain: spied });
    expect([...evaluated].sort()).toEqual(
      [0, 1, 2].map((i) => household.task("train", VALIDATION_OFFSET + i).id).sort(),
    );
    evaluated.clear();
    await runTraining(parseRunConfig({ ...tiny("untrained"), evaluation: { episodes: 3 } }), {
      domain: spied,
    });
    expect([...evaluated].sort()).toEqual(
      household
        .tasks("test", 3)
        .map((t) => t.id)
        .sort(),
    );

    expect(() =>
      parseRunConfig({
        ...tiny("real"),
        seedTasks: VALIDATION_OFFSET + 1,
        evaluation: { tasks: "validation" },
      }),
    ).toThrow(/seedTasks: a run evaluated on validation tasks .* at most 2000 seed tasks, got 2001/);
  });

  it("rejects a bad config naming the field", () => {
    expect(() => parseRunConfig({ method: "dreamgym", domain: "Moon!", groupSize: 1 })).toThrow(
      /domain[\s\S]*groupSize/,
    );
    expect(() => parseRunConfig({ method: "dreamgym", domain: "shop", surprise: true })).toThrow(/surprise/);
  });

  it("counts real and synthetic transitions by method: DreamGym uses none, S2R and real-env training stop at their budget", async () => {
    const results: Record<
      string,
      {
        final: RunResult["final"];
        real: number;
        synthetic: number;
        iterations: number;
        reports: IterationReport[];
      }
    > = {};
    for (const method of ["untrained", "dreamgym", "dreamgym-s2r", "real"] as const) {
      const config = tiny(method);
      const buffer = await offlineBuffer();
      const reports: IterationReport[] = [];
      const result = await runTraining(config, {
        domain: household,
        buffer,
        model: new RetrievalExperienceModel({ reasoning: true }),
        generator: embeddedTaskGenerator("household"),
        onIteration: (r) => {
          reports.push(r);
        },
      });
      results[method] = {
        final: result.final,
        real: result.realTransitions,
        synthetic: result.syntheticTransitions,
        iterations: result.iterations,
        reports,
      };
      expect(result.final.episodes).toBe(4);
      expect(result.checkpoint.kind).toBe("dreamgym.linear-softmax-policy");
    }
    expect(results.untrained).toMatchObject({ real: 0, synthetic: 0, iterations: 0 });
    expect(results.dreamgym).toMatchObject({ real: 0, iterations: 2 });
    expect(results.dreamgym!.synthetic).toBeGreaterThan(0);
    // The budget is never exceeded: the last rollouts are cut short when it runs out.
    expect(results["dreamgym-s2r"]!.real).toBe(60);
    expect(results["dreamgym-s2r"]!.reports.at(-1)!.realTransitions).toBe(60);
    expect(results["dreamgym-s2r"]!.reports.map((r) => r.phase).slice(0, 2)).toEqual([
      "synthetic",
      "synthetic",
    ]);
    expect(results["dreamgym-s2r"]!.reports.at(-1)!.phase).toBe("real");
    // The real phase's curriculum values tasks by real rewards only: after its first iteration, it knows just the
    // tasks that iteration played, however many the synthetic phase had valued.
    const s2r = results["dreamgym-s2r"]!.reports;
    const lastSynthetic = s2r.filter((r) => r.phase === "synthetic").at(-1)!;
    const firstReal = s2r.find((r) => r.phase === "real")!;
    const valued = (r: IterationReport) => r.state.values.entries.map((e) => e.taskId).sort();
    expect(valued(firstReal)).toEqual([...new Set(firstReal.taskStats.map((t) => t.taskId))].sort());
    expect(valued(lastSynthetic).length).toBeGreaterThan(valued(firstReal).length);
    expect(results.real!.synthetic).toBe(0);
    expect(results.real!.real).toBeGreaterThan(0);
    // The final figure is the last iteration's evaluation when one was due then (same policy, one number).
    expect(results.dreamgym!.reports.at(-1)!.evaluation).toEqual(results.dreamgym!.final);
    // Every iteration was evaluated on the real test tasks (interval 1), with cumulative counts.
    for (const r of results.dreamgym!.reports) expect(r.evaluation?.episodes).toBe(4);
    expect(results.dreamgym!.reports.map((r) => r.syntheticTransitions)).toEqual(
      [...results.dreamgym!.reports.map((r) => r.syntheticTransitions)].sort((a, b) => a - b),
    );
  });

  it("reads a config stored before the settings were grouped, and refuses one that turned a removed switch on", () => {
    const stored = {
      method: "dreamgym-s2r",
      domain: "household",
      realInterleave: 3,
      learningRateAnneal: 0,
      learningRateWarmup: 0,
      curriculum: { lambda: 0.25, freshValuesForReal: true },
      experience: { k: 8, learnFromReal: true, pessimism: { mode: "halt" }, oracle: { states: "none" } },
    };
    const upgraded = parseRunConfig(stored);
    expect(upgraded.experimental).toMatchObject({
      realInterleave: 3,
      learnFromReal: true,
      pessimism: { mode: "halt" },
      oracle: { states: "none" },
    });
    expect(upgraded.experience).toEqual(
      parseRunConfig({ method: "dreamgym", domain: "household" }).experience,
    );
    expect(() => parseRunConfig({ ...stored, learningRateAnneal: 0.5 })).toThrow(
      /learningRateAnneal: learningRateAnneal was removed \(it lost on validation tasks: docs\/experiments\.md\); this config sets it to 0\.5/,
    );
    expect(() => parseRunConfig({ ...stored, curriculum: { freshValuesForReal: false } })).toThrow(
      /curriculum\.freshValuesForReal: curriculum\.freshValuesForReal was removed/,
    );
    // Today's shape is not touched; an unknown key is still refused.
    expect(() => parseRunConfig({ method: "dreamgym", domain: "shop", experimental: { anneal: 1 } })).toThrow(
      /experimental: Unrecognized key: "anneal"/,
    );
  });

  it("S2R interleaved: every (n+1)th iteration is real while the budget lasts, and the model learns what it saw", async () => {
    const config = parseRunConfig({
      ...tiny("dreamgym-s2r"),
      iterations: 6,
      realTransitions: 500,
      experimental: { realInterleave: 2, learnFromReal: true },
    });
    const buffer = await offlineBuffer();
    const offline = [...buffer.transitions()].length;
    const learnt: number[] = [];
    const model = new RetrievalExperienceModel({ reasoning: true });
    const reports: IterationReport[] = [];
    const result = await runTraining(config, {
      domain: household,
      buffer,
      model: Object.assign(model, { learn: (ts: readonly unknown[]) => void learnt.push(ts.length) }),
      generator: embeddedTaskGenerator("household"),
      onIteration: (r) => void reports.push(r),
    });
    const phases = reports.map((r) => r.phase);
    // Iterations 3 and 6 of the synthetic phase are real; the budget's rest is spent after it.
    expect(phases.slice(0, 6)).toEqual(["synthetic", "synthetic", "real", "synthetic", "synthetic", "real"]);
    expect(phases.slice(6).every((p) => p === "real")).toBe(true);
    expect(result.realTransitions).toBeLessThanOrEqual(500);
    expect(result.realTransitions).toBeGreaterThan(0);
    // Every real transition joined the buffer as "real" and was handed to the model; no synthetic one was.
    const added = [...buffer.transitions()].slice(offline);
    expect(added.every((t) => t.source === "real")).toBe(true);
    expect(added.length).toBe(result.realTransitions);
    expect(learnt.reduce((a, b) => a + b, 0)).toBe(result.realTransitions);
    // Retrieval reads them beside the offline logs.
    expect(experienceSettings(config).sources).toEqual(["offline", "real"]);

    // Off (the default): the paper's schedule, synthetic then real, and the buffer stays as it was.
    const after = parseRunConfig({ ...tiny("dreamgym-s2r"), iterations: 6, realTransitions: 150 });
    const plain = await runReporting(after);
    const firstReal = plain.reports.findIndex((r) => r.phase === "real");
    expect(firstReal).toBe(6);
    expect(plain.reports.slice(firstReal).every((r) => r.phase === "real")).toBe(true);
    expect(experienceSettings(after).sources).toEqual(["offline"]);
  });

  it("measures the sim-to-real gap at every evaluation point without changing what the run learns", async () => {
    const run = (simulated: number) =>
      runReporting(
        parseRunConfig({ ...tiny("dreamgym"), evaluation: { interval: 1, episodes: 4, simulated } }),
      );
    const measured = await run(3);
    for (const r of measured.reports) {
      expect(r.simulated?.episodes).toBe(3);
      expect(r.simulated!.transitions).toBeGreaterThan(0);
    }
    expect(measured.result.finalSimulated).toEqual(measured.reports.at(-1)!.simulated);
    // Playing in the synthetic environment is not training: same weights, same counts, same real figures.
    const unmeasured = await run(0);
    expect(unmeasured.reports.every((r) => r.simulated === undefined)).toBe(true);
    expect(unmeasured.result.finalSimulated).toBeUndefined();
    expect(unmeasured.result.checkpoint).toEqual(measured.result.checkpoint);
    expect(unmeasured.result.syntheticTransitions).toBe(measured.result.syntheticTransitions);
    expect(unmeasured.result.final).toEqual(measured.result.final);
    // A run that never leaves the real environment has no gap to measure.
    const real = await runTraining(tiny("real"), { domain: household });
    expect(real.finalSimulated).toBeUndefined();
  });

  it("behaviour cloning on expert demonstrations beats the untrained policy on household test tasks", async () => {
    const config = parseRunConfig({
      method: "bc",
      domain: "household",
      seedTasks: 60,
      demonstrations: 60,
      evaluation: { episodes: 30 },
    });
    const result = await runTraining(config, {
      domain: household,
      buffer: await offlineBuffer(),
      model: new RetrievalExperienceModel({ reasoning: true }),
    });
    expect(result.realTransitions).toBe(0);
    expect(result.final.successRate).toBeGreaterThan(result.untrained.successRate + 0.3);
  });

  it.each(["grpo", "ppo"] as const)(
    "%s: a run resumed after a crash ends exactly where the uninterrupted run ends",
    async (algorithm) => {
      const config = { ...tiny("dreamgym"), algorithm, iterations: 3 };
      const deps = {
        domain: household,
        model: new RetrievalExperienceModel({ reasoning: true }),
        generator: embeddedTaskGenerator("household"),
      };
      const uninterrupted = await runTraining(config, { ...deps, buffer: await offlineBuffer() });

      // The worker dies while storing iteration 2; its replay buffer keeps what iteration 1 and 2 added.
      const buffer = await offlineBuffer();
      const first: IterationReport[] = [];
      await expect(
        runTraining(config, {
          ...deps,
          buffer,
          onIteration: (r) => {
            first.push(r);
            if (r.iteration === 1) throw new Error("worker died");
          },
        }),
      ).rejects.toThrow("worker died");
      const state = first[0]!.state;
      expect(state.iterations).toBe(1);
      expect(state.learner?.algorithm).toBe(algorithm);
      expect(state.learner?.optimizer.t).toBeGreaterThan(0);
      // The checkpoint goes through JSON, as it does through the database.
      const stored = JSON.parse(JSON.stringify(state));

      const resumed: IterationReport[] = [];
      const result = await runTraining(config, {
        ...deps,
        buffer,
        resume: stored,
        onIteration: (r) => void resumed.push(r),
      });
      expect(resumed.map((r) => r.iteration)).toEqual([2, 3]);
      expect(result.iterations).toBe(3);
      expect(resumed[0]!.syntheticTransitions).toBeGreaterThan(state.syntheticTransitions);
      expect(result.syntheticTransitions).toBe(uninterrupted.syntheticTransitions);
      // Same weights to the bit: optimizer moments, minibatch draws and (PPO) the critic all came back.
      expect(result.checkpoint.weights).toBe(uninterrupted.checkpoint.weights);
      expect(result.final).toEqual(uninterrupted.final);
      expect(result.untrained).toEqual(uninterrupted.untrained);
    },
  );

  it("refuses a learner state saved by the other algorithm, naming both", async () => {
    const config = { ...tiny("dreamgym"), algorithm: "grpo" as const, iterations: 1 };
    const deps = {
      domain: household,
      model: new RetrievalExperienceModel({ reasoning: true }),
      generator: embeddedTaskGenerator("household"),
    };
    const reports: IterationReport[] = [];
    await runTraining(config, {
      ...deps,
      buffer: await offlineBuffer(),
      onIteration: (r) => void reports.push(r),
    });
    const state = reports[0]!.state;
    await expect(
      runTraining(
        { ...config, algorithm: "ppo", iterations: 2 },
        { ...deps, buffer: await offlineBuffer(), resume: state },
      ),
    ).rejects.toThrow("learner state was saved by grpo, this run trains with ppo");
  });
  it("GRPO's KL penalty to the starting policy is a config switch; a resumed KL run rebuilds its reference exactly", async () => {
    const config = (klBeta: number) =>
      // The shop: its partial-credit rewards vary within a group from the first iteration, so the policy moves.
      parseRunConfig({
        method: "real",
        domain: "shop",
        iterations: 3,
        tasksPerBatch: 4,
        groupSize: 4,
        seedTasks: 20,
        realTransitions: 100_000,
        evaluation: { interval: 10, episodes: 4 },
        grpo: { klBeta },
      });
    const deps = { domain: shop };
    const reports: IterationReport[] = [];
    const withKl = await runTraining(config(0.5), { ...deps, onIteration: (r) => void reports.push(r) });
    const withoutKl = await runTraining(config(0), deps);
    expect(reports.some((r) => r.update.refKl > 0)).toBe(true);
    expect(withKl.checkpoint.weights).not.toBe(withoutKl.checkpoint.weights);

    const first: IterationReport[] = [];
    await expect(
      runTraining(config(0.5), {
        ...deps,
        onIteration: (r) => {
          first.push(r);
          if (r.iteration === 1) throw new Error("worker died");
        },
      }),
    ).rejects.toThrow("worker died");
    const resumed = await runTraining(config(0.5), {
      ...deps,
      resume: JSON.parse(JSON.stringify(first[0]!.state)),
    });
    expect(resumed.checkpoint.weights).toBe(withKl.checkpoint.weights);
  });

  it("trains in an imported domain's synthetic environment alone and reports proxies, never real success", async () => {
    const { domain, buffer } = await importedFrom(household, "house-logs", 12, 4);
    const config = (method: RunMethod) =>
      parseRunConfig({
        method,
        domain: "house-logs",
        iterations: 2,
        tasksPerBatch: 2,
        groupSize: 2,
        demonstrations: 6,
        warmStart: "bc",
        evaluation: { interval: 1, episodes: 4 },
      });
    const deps = {
      domain,
      buffer,
      model: new RetrievalExperienceModel({ reasoning: true }),
      generator: blindTaskGenerator(domain.name, trainInstructions(domain)),
    };
    const reports: IterationReport[] = [];
    const result = await runTraining(config("dreamgym"), {
      ...deps,
      onIteration: (r) => void reports.push(r),
    });
    expect(result).toMatchObject({ realTransitions: 0, iterations: 2 });
    expect(result.syntheticTransitions).toBeGreaterThan(0);
    // Every evaluation is a proxy: synthetic success on the held-out imported tasks, with the model's confidence
    // and the agreement with the held-out successful logs; no sim-to-real gap, for there is no "real".
    for (const e of [result.untrained, result.final, ...reports.map((r) => r.evaluation!)]) {
      expect(e.episodes).toBe(4);
      expect(e.proxy?.confidence).toBeGreaterThan(0);
      expect(e.proxy?.agreementSteps).toBeGreaterThan(0);
      expect(e.proxy?.actionAgreement).toBeGreaterThanOrEqual(0);
    }
    expect(result.finalSimulated).toBeUndefined();
    // Validation tasks are train tasks of a built-in domain: an imported one has only its held-out logs.
    await expect(
      runTraining(parseRunConfig({ ...config("dreamgym"), evaluation: { tasks: "validation" } }), deps),
    ).rejects.toThrow(
      /imported domain "house-logs" is evaluated on its held-out logs; .* set evaluation.tasks to "test"/,
    );
    // Cloning the successful train logs makes the policy pick the logged actions far more often than a blank one.
    expect(result.final.proxy!.actionAgreement!).toBeGreaterThan(
      result.untrained.proxy!.actionAgreement! + 0.1,
    );
    // Imported from the household's own logs, the final policy can be scored once in the real household.
    const checked = await runTraining(
      parseRunConfig({
        ...config("dreamgym"),
        evaluation: { interval: 5, episodes: 4, groundTruth: "household" },
      }),
      { ...deps, groundTruth: household },
    );
    expect(checked.groundTruth?.episodes).toBe(4);
    expect(checked.final.proxy).toBeDefined();
    await expect(
      runTraining(parseRunConfig({ ...tiny("dreamgym"), evaluation: { groundTruth: "household" } }), {
        domain: household,
        groundTruth: household,
      }),
    ).rejects.toThrow(/groundTruth is for an imported copy/);
    // Methods that need the real environment are refused, saying why.
    await expect(runTraining(config("real"), deps)).rejects.toThrow(/imported domain "house-logs" has none/);
    await expect(runTraining(config("dreamgym-s2r"), deps)).rejects.toThrow(/trains in a real environment/);
  });

  it("builds from a built-in domain's logs as imported ones", async () => {
    const { domain: imported } = await importedFrom(household, "house-logs", 6, 3);
    expect(imported.tasks("train", 10)).toHaveLength(6);
    expect(imported.tasks("test", 10).every((t) => t.goal === undefined && t.origin === "imported")).toBe(
      true,
    );
    const first = imported.tasks("train", 1)[0]!;
    expect((await imported.initialState(first)).text).toBe(
      (await household.createEnvironment().reset(household.task("train", 0))).text,
    );
  });
});
