/**
 * `npm run bench -- fidelity [--domains shop,household] [--transitions 1000] [--episodes 100] [--alternatives 150]
 * [--k 8] [--tasks test|validation] [--no-write]`: the embedded experience model against each built-in domain's real
 * environment, writing bench/results/fidelity-<domain>.json.
 *
 * The model learns from the reproduction table's offline data (its expert, noisy and random episodes on train
 * tasks), then:
 * - teacher-forced: a noisy expert (ε 0.3) plays held-out tasks for real, and at every step the model predicts
 *   the next state from the real history (hallucination rate, token F1, terminal reward MAE, success precision and
 *   recall), overall and per kind of action;
 * - alternatives: at real states where an action ends the episode, every action of the same kind is tried for
 *   real and predicted: what the model pays right and wrong endings, and whether it ranks a right one first;
 * - closed loop: the same policy plays the synthetic environment on the model's own states, with the real
 *   environment stepped beside it: per kind of action, how far the model's states part from the real ones, whether
 *   an action taken again shows the same thing when nothing changed there (experience/consistency.ts), and, for the
 *   household, whether an object the model placed stays there and a closed receptacle stays closed until opened.
 */
import fs from "node:fs";
import path from "node:path";
import type { RealDomain } from "@/core/envs/domain";
import { REAL_DOMAIN_NAMES } from "@/core/envs/names";
import { getRealDomain, type ReferencePolicy, referencePolicy } from "@/core/envs/registry";
import { measureAlternatives } from "@/core/experience/alternatives";
import { consistencyOf, type PairedEpisode, pairedEpisodes } from "@/core/experience/consistency";
import { byActionType } from "@/core/experience/fidelity";
import { measureFidelity } from "@/core/experience/fidelityRun";
import { OfflineMemory } from "@/core/experience/retrieval/offlineMemory";
import { RetrievalExperienceModel } from "@/core/experience/retrieval/retrievalModel";
import { SyntheticEnvironment } from "@/core/experience/synthetic";
import type { ExperienceSettings } from "@/core/experience/types";
import { episodeTransitions } from "@/core/replay/episodeTransitions";
import { HashNgramEmbedder } from "@/core/replay/hashEmbedder";
import { MemoryReplayBuffer } from "@/core/replay/memoryBuffer";
import { rollout } from "@/core/rollout";
import { heldOutTask } from "@/core/train/heldOut";
import type { Transition } from "@/core/types";
import { householdWorldChecks } from "./fidelityHousehold";
import { domainsFlag, flagValue } from "./flags";

/** The reproduction table's offline data (bench/table/spec.ts SCALES.full.offline): expert, noisy, random. */
const OFFLINE: { policy: ReferencePolicy; episodes: number; epsilon: number; seed: number }[] = [
  { policy: "expert", episodes: 300, epsilon: 0, seed: 1 },
  { policy: "noisy", episodes: 200, epsilon: 0.3, seed: 2 },
  { policy: "random", episodes: 100, epsilon: 1, seed: 3 },
];

interface Options {
  domains: string[];
  transitions: number;
  episodes: number;
  /** Choice states at which every alternative of the taken action's kind is tried (core/experience/alternatives). */
  alternatives: number;
  k: number;
  tasks: "test" | "validation";
  write: boolean;
  out: string;
}

function parse(args: string[]): Options {
  const value = (flag: string) => flagValue(args, flag);
  const int = (flag: string, fallback: number) => {
    const raw = value(flag);
    const n = raw === undefined ? fallback : Number.parseInt(raw, 10);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${flag}: not a non-negative integer: ${raw}`);
    return n;
  };
  const domains = domainsFlag(args, REAL_DOMAIN_NAMES);
  const tasks = value("--tasks") ?? "test";
  if (tasks !== "test" && tasks !== "validation")
    throw new Error(`--tasks: test or validation, not ${tasks}`);
  return {
    domains,
    transitions: int("--transitions", 1000),
    episodes: int("--episodes", 100),
    alternatives: int("--alternatives", 150),
    k: int("--k", 8),
    tasks,
    write: !args.includes("--no-write"),
    out: path.resolve(value("--out") ?? path.join("bench", "results")),
  };
}

export async function offlineData(domain: RealDomain): Promise<Transition[]> {
  const transitions: Transition[] = [];
  let offset = 0;
  for (const collection of OFFLINE) {
    const { policy } = referencePolicy(domain, collection.policy, collection.seed, collection.epsilon);
    for (let i = 0; i < collection.episodes; i++) {
      const task = domain.task("train", offset + i);
      const episode = await rollout(domain.createEnvironment(), policy, task, domain.maxSteps);
      transitions.push(...episodeTransitions(episode, "offline", `${collection.policy}-${offset + i}`));
    }
    offset += collection.episodes;
  }
  return transitions;
}

async function measureDomain(name: string, options: Options) {
  const started = performance.now();
  const domain = getRealDomain(name);
  const transitions = await offlineData(domain);
  const buffer = new MemoryReplayBuffer(new HashNgramEmbedder());
  await buffer.add(transitions);
  const settings: ExperienceSettings = {
    k: options.k,
    historyWindow: 4,
    reasoning: true,
    sources: ["offline"],
  };
  const model = () =>
    new RetrievalExperienceModel(settings, OfflineMemory.fromTransitions(transitions, domain.declarations));
  const { report, scores } = await measureFidelity(domain, model(), buffer, settings, {
    transitions: options.transitions,
    task: (i) => heldOutTask(domain, options.tasks, i),
    epsilon: 0.3,
    seed: 0,
  });
  // Its own model: the prediction memo must not carry answers between the measures.
  const alternatives = await measureAlternatives(domain, model(), buffer, settings, {
    states: options.alternatives,
    perState: 6,
    task: (i) => heldOutTask(domain, options.tasks, i),
    epsilon: 0.3,
    seed: 0,
  });
  const closedModel = model();
  const synthetic = () =>
    new SyntheticEnvironment(
      domain.name,
      closedModel,
      buffer,
      settings,
      async (task) => domain.createEnvironment().reset(task),
      domain.maxSteps,
    );
  const tasks = Array.from({ length: options.episodes }, (_, i) => heldOutTask(domain, options.tasks, i));
  const episodes: PairedEpisode[] = await pairedEpisodes(
    domain,
    synthetic,
    (i) => domain.noisy(i, 0.3),
    tasks,
  );
  return {
    domain: name,
    model: closedModel.name,
    settings,
    heldOut: options.tasks,
    offline: { collections: OFFLINE, transitions: transitions.length },
    teacherForced: {
      hallucinationRate: report.hallucinationRate,
      tokenF1: report.tokenF1,
      terminalRewardMAE: report.terminalRewardMAE,
      successPrecision: report.successPrecision,
      successRecall: report.successRecall,
      report,
      byActionType: byActionType(scores),
    },
    alternatives,
    closedLoop: {
      ...consistencyOf(episodes),
      ...(name === "household" ? { world: householdWorldChecks(episodes) } : {}),
    },
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
  };
}

export async function fidelityBench(args: string[]) {
  const options = parse(args);
  for (const name of options.domains) {
    const result = await measureDomain(name, options);
    const file = path.join(
      options.out,
      `fidelity-${name}${options.tasks === "validation" ? "-validation" : ""}.json`,
    );
    if (options.write) {
      fs.mkdirSync(options.out, { recursive: true });
      fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    }
    process.stderr.write(`fidelity ${name}: ${JSON.stringify(result.teacherForced.report)}\n`);
    process.stdout.write(
      `${JSON.stringify({
        bench: "fidelity",
        domain: name,
        hallucinationRate: result.teacherForced.hallucinationRate,
        tokenF1: result.teacherForced.tokenF1,
        terminalRewardMAE: result.teacherForced.terminalRewardMAE,
        successPrecision: result.teacherForced.successPrecision,
        successRecall: result.teacherForced.successRecall,
        revisitConsistency: result.closedLoop.revisitConsistency,
        alternatives: result.alternatives,
        closedLoopSuccess: {
          synthetic: result.closedLoop.syntheticSuccess,
          real: result.closedLoop.realSuccess,
        },
        seconds: result.seconds,
        ...(options.write ? { out: path.relative(process.cwd(), file) } : {}),
      })}\n`,
    );
  }
}
