import { ImportedDomain, type LoggedEpisode } from "../envs/imported/importedDomain";
import { OfflineMemory } from "../experience/retrieval/offlineMemory";
import { RetrievalExperienceModel } from "../experience/retrieval/retrievalModel";
import { DEFAULT_EXPERIENCE_SETTINGS, type ExperienceSettings } from "../experience/types";
import { HashNgramEmbedder } from "../replay/hashEmbedder";
import { MemoryReplayBuffer } from "../replay/memoryBuffer";
import { type ImportedTrajectory, parseImport } from "../trajectories/importFormat";
import type { Task, Transition } from "../types";
import { Rng } from "../util/random";

/** A trajectory's steps as transitions, as the import stores them (a next state lists its next step's actions). */
function transitionsOf({ key, taskId, data }: ImportedTrajectory): Transition[] {
  return data.steps.map((s, index, all) => {
    const following = all[index + 1];
    return {
      id: `${key}-${index}`,
      domain: data.domain,
      instruction: data.instruction,
      source: data.source,
      taskId,
      state: { text: s.state, ...(s.admissible_actions ? { actions: s.admissible_actions } : {}) },
      action: s.action,
      ...(s.reasoning !== undefined ? { reasoning: s.reasoning } : {}),
      next: {
        text: s.next_state,
        ...(following?.state === s.next_state && following.admissible_actions
          ? { actions: following.admissible_actions }
          : {}),
      },
      reward: s.reward,
      done: s.done,
      success: s.success ?? (s.done && s.reward >= 1),
      valid: s.valid ?? true,
    };
  });
}

/** Every step's next state swapped with another step's (seeded): logs whose next states nothing can predict. */
function shuffleNext(episodes: LoggedEpisode<Transition>[], seed: string): LoggedEpisode<Transition>[] {
  const nexts = new Rng(seed).shuffle(episodes.flatMap((e) => e.steps.map((s) => s.next)));
  let i = 0;
  return episodes.map((e) => ({ ...e, steps: e.steps.map((s) => ({ ...s, next: nexts[i++]! })) }));
}

/**
 * For tests: an imported domain from a JSONL file's text (the import format), with the replay buffer of its train
 * logs and the embedded experience model that learnt them, as a run in the domain would have them.
 */
export async function importedFromJsonl(text: string, options: { shuffleSeed?: string } = {}) {
  const parsed = parseImport(text);
  if (parsed.errors.length > 0) throw new Error(`bad import: ${JSON.stringify(parsed.errors.slice(0, 3))}`);
  const tasks = new Map<string, Task>();
  let episodes: LoggedEpisode<Transition>[] = parsed.trajectories.map((t) => {
    const d = t.data;
    tasks.set(t.taskId, {
      id: t.taskId,
      domain: d.domain,
      instruction: d.instruction,
      split: d.split,
      origin: "imported",
    });
    const steps = transitionsOf(t);
    const last = steps[steps.length - 1]!;
    return { taskId: t.taskId, steps, success: last.success, ...(d.policy ? { policy: d.policy } : {}) };
  });
  if (options.shuffleSeed !== undefined) episodes = shuffleNext(episodes, options.shuffleSeed);
  const name = parsed.trajectories[0]!.data.domain;
  const domain = new ImportedDomain<Transition>({ name, tasks: [...tasks.values()], episodes });
  const buffer = new MemoryReplayBuffer(new HashNgramEmbedder());
  await buffer.add(domain.trainSteps());
  const settings: ExperienceSettings = { ...DEFAULT_EXPERIENCE_SETTINGS, sources: ["offline"] };
  const model = new RetrievalExperienceModel(settings, OfflineMemory.fromTransitions(domain.trainSteps()));
  return { domain, buffer, model, settings };
}

/**
 * For tests: a JSONL import file (the project's format) whose every step's next state is another step's, seeded,
 * filed under another domain name (task ids renamed with it): logs whose next states nothing can predict.
 */
export function shuffledNextStates(text: string, options: { seed: string; domain: string }): string {
  const lines = text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { domain: string; task_id?: string; steps: { next_state: string }[] });
  const nexts = new Rng(options.seed).shuffle(lines.flatMap((l) => l.steps.map((s) => s.next_state)));
  let i = 0;
  const renamed = lines.map((l) => ({
    ...l,
    domain: options.domain,
    ...(l.task_id ? { task_id: l.task_id.replace(`${l.domain}:`, `${options.domain}:`) } : {}),
    steps: l.steps.map((s) => ({ ...s, next_state: nexts[i++]! })),
  }));
  return `${renamed.map((l) => JSON.stringify(l)).join("\n")}\n`;
}
