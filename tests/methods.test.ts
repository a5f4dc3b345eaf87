/**
 * Pins every consumer of the methods table (src/core/train/methods.ts) to it: the runner runs the phases the
 * table lists, its dependencies are built for what the table says the method uses, a setting the launch form
 * dims for a method really changes nothing in that method's run, and no module decides by a method's name.
 */
import fs from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RunConfig, type RunConfigInput } from "@/core/train/config";
import {
  clones,
  METHODS,
  plannedIterations,
  RUN_METHODS,
  type RunMethod,
  runProgress,
  taskGeneration,
  trainedWith,
} from "@/core/train/methods";
import { type IterationReport, type RunResult, runTraining } from "@/core/train/run";
import {
  FIELDS,
  type FieldDef,
  type FormValues,
  isUsed,
  parseForm,
  toFormValues,
} from "@/features/runs/configForm";
import { PRESETS } from "@/features/runs/presets";
import { runDeps } from "@/server/train/runDeps";
import { createHouseholdOfflineDb, type TestDb } from "./helpers/testDb";

let t: TestDb;
beforeAll(async () => {
  t = await createHouseholdOfflineDb(8);
});
afterAll(async () => {
  await t.cleanup();
});

/** Small enough that a run takes tens of milliseconds, large enough that every phase does real work. */
const tiny = (method: RunMethod, overrides: Partial<RunConfigInput> = {}): RunConfigInput => ({
  method,
  domain: "household",
  iterations: 2,
  tasksPerBatch: 2,
  groupSize: 2,
  seedTasks: 8,
  realTransitions: 40,
  demonstrations: 4,
  bc: { epochs: 2 },
  evaluation: { interval: 1, episodes: 2 },
  ...overrides,
});

async function run(input: RunConfigInput) {
  const config = RunConfig.parse(input);
  const reports: IterationReport[] = [];
  const deps = await runDeps(t.db, config);
  const result = await runTraining(config, { ...deps, onIteration: (r) => void reports.push(r) }).finally(
    () => deps.close(),
  );
  return { config, deps, reports, result };
}

/** What a run produced, without its wall time. */
const outcome = ({ seconds: _seconds, ...rest }: RunResult) => rest;

describe("the methods table", () => {
  it("is what the runner runs: phases in order, each to its end, cloning and task generation as listed", async () => {
    for (const method of RUN_METHODS) {
      const { config, deps, reports, result } = await run(tiny(method));
      const spec = METHODS[method];
      const phases = [...new Set(reports.map((r) => r.phase))];
      expect(phases, method).toEqual(spec.phases.map((p) => p.phase));
      for (const { phase, until } of spec.phases) {
        const inPhase = reports.filter((r) => r.phase === phase);
        if (until === "iterations") expect(inPhase.length, `${method} ${phase}`).toBe(config.iterations);
        if (until === "budget") expect(result.realTransitions, method).toBe(config.realTransitions);
        if (until === "budget-or-iterations")
          expect(
            result.iterations === config.iterations || result.realTransitions === config.realTransitions,
            method,
          ).toBe(true);
      }
      if (spec.phases.length === 0) expect(result.iterations, method).toBe(0);
      // Cloning moves the policy away from the blank one before any RL.
      if (spec.phases.length === 0)
        expect(result.final.successRate > result.untrained.successRate || !clones(config), method).toBe(true);
      // Dependencies: an experience model and buffer only for a synthetic phase, a generator only when it writes.
      const synthetic = spec.phases.some((p) => p.phase === "synthetic");
      expect(deps.model !== undefined && deps.buffer !== undefined, method).toBe(synthetic);
      expect(deps.generator !== undefined, method).toBe(taskGeneration(config));
      expect(reports.flatMap((r) => r.generated).length > 0 ? taskGeneration(config) : true, method).toBe(
        true,
      );
    }
  });

  it("keeps the real-env baseline off curriculum variations unless its config asks", async () => {
    const plain = await run(tiny("real"));
    expect(plain.config.curriculum.taskGeneration).toBe(false);
    expect(plain.reports.flatMap((r) => r.generated)).toEqual([]);
    // Behaviour-cloned, so that rewards vary within groups and the curriculum has parents to vary.
    const asked = await run(
      tiny("real", {
        warmStart: "bc",
        demonstrations: 20,
        tasksPerBatch: 3,
        groupSize: 4,
        realTransitions: 10_000,
        curriculum: { taskGeneration: true, parentsPerIteration: 2 },
      }),
    );
    expect(asked.config.curriculum.taskGeneration).toBe(true);
    expect(asked.reports.flatMap((r) => r.generated).length).toBeGreaterThan(0);
    expect(RunConfig.parse(tiny("dreamgym")).curriculum.taskGeneration).toBe(true);
  });

  it("reports progress by phase: iterations for synthetic ones, the real budget for real ones", () => {
    const dreamgym = RunConfig.parse(tiny("dreamgym", { iterations: 10 }));
    expect(runProgress(dreamgym, { iterations: 5, realTransitions: 0 })).toBeCloseTo(0.5);
    expect(plannedIterations(dreamgym)).toBe(10);
    const s2r = RunConfig.parse(tiny("dreamgym-s2r", { iterations: 10, realTransitions: 1000 }));
    expect(runProgress(s2r, { iterations: 10, realTransitions: 500 })).toBeCloseTo(0.75);
    expect(runProgress(s2r, { iterations: 13, realTransitions: 1104 })).toBe(1);
    expect(plannedIterations(s2r)).toBeNull();
    // The real baseline of the table: an iteration cap far above what its budget allows.
    const real = RunConfig.parse(tiny("real", { iterations: 100_000, realTransitions: 80_000 }));
    expect(runProgress(real, { iterations: 40, realTransitions: 40_000 })).toBeCloseTo(0.5);
    expect(runProgress(RunConfig.parse(tiny("bc")), { iterations: 0, realTransitions: 0 })).toBe(0);
    expect(trainedWith(RunConfig.parse(tiny("bc")))).toBe("bc");
    expect(trainedWith(RunConfig.parse(tiny("untrained")))).toBe("none");
    expect(trainedWith(RunConfig.parse(tiny("real", { algorithm: "ppo" })))).toBe("ppo");
    // A synthetic budget: progress by whichever of iterations and transitions is further along.
    const budgeted = RunConfig.parse(tiny("dreamgym", { iterations: 100_000, syntheticTransitions: 80_000 }));
    expect(
      runProgress(budgeted, { iterations: 10, realTransitions: 0, syntheticTransitions: 20_000 }),
    ).toBeCloseTo(0.25);
    expect(plannedIterations(budgeted)).toBeNull();
  });

  it("ends a synthetic phase at the iteration that reaches its synthetic budget, then goes on to the next", async () => {
    for (const method of ["dreamgym", "dreamgym-s2r"] as const) {
      const { config, reports, result } = await run(
        tiny(method, { iterations: 1_000, syntheticTransitions: 600, realTransitions: 40 }),
      );
      const synthetic = reports.filter((r) => r.phase === "synthetic");
      expect(result.syntheticTransitions, method).toBeGreaterThanOrEqual(config.syntheticTransitions);
      // One iteration fewer would not have reached it: the phase stopped as soon as it could (an iteration of four
      // household episodes makes at most 200 transitions, so the budget takes several).
      expect(synthetic.at(-2)!.syntheticTransitions, method).toBeLessThan(config.syntheticTransitions);
      expect(synthetic.length, method).toBeLessThan(config.iterations);
      if (method === "dreamgym-s2r") expect(result.realTransitions).toBe(config.realTransitions);
    }
  });
});

/** Another valid value for a field, so that a run with it would differ if the method read it. */
function perturb(field: FieldDef, value: string | boolean): string | boolean {
  const { kind } = field;
  if (kind.type === "bool") return !value;
  if (kind.type === "text") return `${value}-changed`;
  if (kind.type === "enum") return kind.options.find((o) => o.value !== value)?.value ?? value;
  const n = Number(value);
  const step = kind.type === "int" ? 1 : (kind.step ?? 0.1);
  return String(kind.max !== undefined && n + step > kind.max ? n - step : n + step);
}

describe("the launch form's dimmed settings", () => {
  const runForm = async (values: FormValues) => {
    const parsed = parseForm(values);
    if (!parsed.ok) throw new Error(`form refused: ${JSON.stringify(parsed.errors)}`);
    return outcome((await run(parsed.config)).result);
  };

  it("change nothing in a run of the method that dims them", async () => {
    // All of a method's dimmed settings are changed at once (one run instead of one per setting); only when the
    // run differs is each setting tried alone, to name the one the method reads after all.
    let checked = 0;
    for (const method of RUN_METHODS) {
      // The PPO form of each RL method too, so that GRPO's knobs are checked as unused by PPO and back.
      for (const algorithm of ["grpo", "ppo"] as const) {
        const values = toFormValues(RunConfig.parse(tiny(method, { algorithm })));
        // An imported domain's settings (the LLM judge) are refused on a built-in domain, not ignored: the config
        // says so (config.ts), and the domains router test checks it.
        const dimmed = FIELDS.filter(
          (f) => !isUsed(f, values) && f.path !== "method" && f.use !== "imported",
        );
        const changed = (fields: FieldDef[]) => ({
          ...values,
          ...Object.fromEntries(fields.map((f) => [f.path, perturb(f, values[f.path] ?? "")])),
        });
        const baseline = await runForm(values);
        const all = await runForm(changed(dimmed));
        if (!isDeepStrictEqual(all, baseline)) {
          const culprits: string[] = [];
          for (const field of dimmed)
            if (!isDeepStrictEqual(await runForm(changed([field])), baseline)) culprits.push(field.path);
          expect(culprits, `${method}/${algorithm}: dimmed settings that change the run`).toEqual([]);
          expect.unreachable(`${method}/${algorithm}: the dimmed settings together change the run`);
        }
        checked += dimmed.length;
      }
    }
    expect(checked).toBeGreaterThan(100);
  }, 120_000);

  it("show every preset's settings as the table says", () => {
    for (const preset of PRESETS) {
      const values = toFormValues(preset.config);
      const curriculum = FIELDS.find((f) => f.path === "curriculum.lambda")!;
      expect(isUsed(curriculum, values), preset.id).toBe(preset.config.curriculum.taskGeneration);
    }
  });
});

describe("no module but the table decides by a method's name", () => {
  const root = path.resolve(import.meta.dirname, "..");
  const sources = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === "generated" ? [] : sources(file);
      return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
    });
  const names = RUN_METHODS.map((m) => m.replace("-", "\\-")).join("|");
  const comparison = new RegExp(
    `method\\s*[!=]==?\\s*["'](${names})["']|["'](${names})["']\\s*[!=]==?\\s*[\\w.]*method\\b|case\\s+["'](${names})["']`,
  );
  it("finds no comparison with a method name outside methods.ts", () => {
    const offenders: string[] = [];
    for (const dir of ["src", "worker", "bench", "scripts"])
      for (const file of sources(path.join(root, dir))) {
        if (file.endsWith(path.join("core", "train", "methods.ts"))) continue;
        fs.readFileSync(file, "utf8")
          .split("\n")
          .forEach((line, i) => {
            if (comparison.test(line))
              offenders.push(`${path.relative(root, file)}:${i + 1}: ${line.trim()}`);
          });
      }
    expect(offenders).toEqual([]);
  });

  it("the scan itself catches a comparison", () => {
    expect(comparison.test(`if (config.method === "bc") return;`)).toBe(true);
    expect(comparison.test(`const x = "real" !== run.method;`)).toBe(true);
  });
});
