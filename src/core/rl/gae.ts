/**
 * Generalised advantage estimation, GAE(gamma, lambda) (Schulman et al. 2016), as CleanRL's ppo.py computes it:
 *
 *   delta_t = r_t + gamma * V(s_{t+1}) * (1 - done_t) - V(s_t)
 *   A_t     = delta_t + gamma * lambda * (1 - done_t) * A_{t+1}
 *   R_t     = A_t + V(s_t)                      (the value target)
 *
 * with V(s_T) = lastValue after the last step. Convention: dones[t] is true when the episode ended with step t
 * (the environment answered done to action t). CleanRL stores the same flag one slot later (dones[t + 1], and
 * next_done for the last step): the arithmetic is identical.
 */
export function gae(
  rewards: readonly number[],
  values: readonly number[],
  dones: readonly boolean[],
  gamma: number,
  lambda: number,
  lastValue: number,
): { advantages: number[]; returns: number[] } {
  const n = rewards.length;
  if (values.length !== n || dones.length !== n)
    throw new Error(
      `gae: rewards, values and dones must have one entry per step (${n}, ${values.length}, ${dones.length})`,
    );
  const advantages = new Array<number>(n).fill(0);
  let lastGaeLam = 0;
  for (let t = n - 1; t >= 0; t--) {
    const nextNonTerminal = dones[t] ? 0 : 1;
    const nextValue = t === n - 1 ? lastValue : (values[t + 1] as number);
    const delta = (rewards[t] as number) + gamma * nextValue * nextNonTerminal - (values[t] as number);
    lastGaeLam = delta + gamma * lambda * nextNonTerminal * lastGaeLam;
    advantages[t] = lastGaeLam;
  }
  const returns = advantages.map((a, t) => a + (values[t] as number));
  return { advantages, returns };
}
