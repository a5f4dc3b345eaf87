/**
 * What can go wrong with an environment DreamGym does not run, told apart from what the policy did: a broken
 * episode is played again from its start (its own random stream makes the replay the same episode), never counted
 * as a failure; an environment that stays down fails the run with its name and address.
 */

/** The environment broke this episode (replies it could not read, a replay that went elsewhere, a lost session). */
export class EpisodeBroken extends Error {
  override readonly name = "EpisodeBroken";
  constructor(
    readonly environment: string,
    readonly reason: string,
  ) {
    super(`remote environment "${environment}" broke the episode: ${reason}`);
  }
}

/** The environment did not answer for longer than its registration allows. */
export class EnvironmentDown extends Error {
  override readonly name = "EnvironmentDown";
  constructor(
    readonly environment: string,
    readonly url: string,
    readonly downForMs: number,
    readonly lastError: string,
  ) {
    super(
      `remote environment "${environment}" at ${url} has not answered for ${Math.round(downForMs / 1000)} s (last error: ${lastError})`,
    );
  }
}

/** Times an episode the environment broke is played again before the run stops. */
export const BROKEN_EPISODE_REPLAYS = 3;

/**
 * Plays an episode; when the environment breaks it, plays it again from the start, up to `replays` times, and
 * reports each broken attempt (`onBroken`) so that runs can count them apart from the policy's failures.
 */
export async function replayIfBroken<T>(
  play: () => Promise<T>,
  onBroken: (error: EpisodeBroken, attempt: number) => void = () => {},
  replays = BROKEN_EPISODE_REPLAYS,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await play();
    } catch (error) {
      if (!(error instanceof EpisodeBroken) || attempt > replays) throw error;
      onBroken(error, attempt);
    }
  }
}
