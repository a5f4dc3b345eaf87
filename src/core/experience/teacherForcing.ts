import type { ReplayBuffer } from "../replay/buffer";
import type { Observation, Step, Task } from "../types";
import type { ExperienceInput, ExperienceSettings } from "./types";

/**
 * What the experience model is asked at a real step of a real episode (teacher forcing): the real history, state
 * and action, with the demonstrations the buffer retrieves for them (never from the task's own episodes).
 */
export async function teacherForcedInput(
  buffer: ReplayBuffer | undefined,
  settings: ExperienceSettings,
  domain: string,
  task: Task,
  history: Step[],
  state: Observation,
  action: string,
): Promise<ExperienceInput> {
  const demonstrations =
    buffer && settings.k > 0
      ? await buffer.similar(
          { domain, state: state.text, action, instruction: task.instruction },
          settings.k,
          {
            ...(settings.sources ? { sources: settings.sources } : {}),
            excludeTaskIds: [task.id],
          },
        )
      : [];
  return {
    task,
    history: settings.historyWindow > 0 ? history.slice(-settings.historyWindow) : [],
    episode: history,
    state,
    action,
    demonstrations,
  };
}
