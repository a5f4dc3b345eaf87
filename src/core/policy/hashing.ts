/**
 * Feature hashing (Weinberger et al. 2009): a feature is a short tuple of small integers and token hashes, mixed
 * into one 32-bit hash; its low bits pick a weight and its top bit a sign, so collisions cancel on average instead
 * of adding up. Combining integers instead of building strings keeps act() fast.
 */
import { combine, hashString, mix } from "../util/random";

export { combine, mix };

/** Memoised token hash: the same few thousand words are hashed millions of times during training. */
const tokenHashes = new Map<string, number>();
/** Bound on the memo, so a long-running worker reading generated text does not grow it forever. */
const TOKEN_MEMO_LIMIT = 200_000;

export function tokenHash(token: string): number {
  const hit = tokenHashes.get(token);
  if (hit !== undefined) return hit;
  if (tokenHashes.size >= TOKEN_MEMO_LIMIT) tokenHashes.clear();
  const h = mix(hashString(token));
  tokenHashes.set(token, h);
  return h;
}

/**
 * A feature's packed code for a weight vector of `dimension` (a power of two): the index, bit-inverted when the
 * sign is negative (~index is negative for every index, including 0).
 */
export function featureCode(hash: number, mask: number): number {
  const index = hash & mask;
  return hash >>> 31 === 1 ? ~index : index;
}

export function isPowerOfTwo(n: number): boolean {
  return Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0;
}
