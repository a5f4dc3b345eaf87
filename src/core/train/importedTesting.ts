import type { RealDomain } from "../envs/domain";
import { ImportedDomain, type LoggedEpisode } from "../envs/imported/importedDomain";
import { episodeTransitions } from "../replay/episodeTransitions";
import { HashNgramEmbedder } from "../replay/hashEmbedder";
import { MemoryReplayBuffer } from "../replay/memoryBuffer";
import { rollout } from "../rollout";
import type { Task } from "../types";

/**
 * For tests: a built-in domain's logs as if imported under another name (tasks without goals, origin
 * "imported"): noisy-expert episodes of train tasks 0..train-1 and test tasks 0..test-1, as an ImportedDomain and
 * the replay buffer of its logs.
 */
export async function importedFrom(real: RealDomain, name: string, train: number, test: number) {
  const tasks: Task[] = [];
  const episodes: LoggedEpisode[] = [];
  const buffer = new MemoryReplayBuffer(new HashNgramEmbedder());
  const splits = [
    ["train", train],
    ["test", test],
  ] as const;
  for (const [split, count] of splits) {
    for (let i = 0; i < count; i++) {
      const { goal: _goal, ...seen } = real.task(split, i);
      const task: Task = { ...seen, id: `${name}:${seen.id}`, domain: name, origin: "imported" };
      tasks.push(task);
      // Played on the real task (the environment needs its goal), logged under the imported one.
      const episode = await rollout(
        real.createEnvironment(),
        real.noisy(i, 0.2),
        real.task(split, i),
        real.maxSteps,
      );
      episodes.push({ taskId: task.id, steps: episode.steps, success: episode.success });
      const transitions = episodeTransitions({ ...episode, task }, "offline", `${name}-${split}-${i}`);
      await buffer.add(transitions);
    }
  }
  return { domain: new ImportedDomain({ name, tasks, episodes }), buffer, tasks, episodes };
}
