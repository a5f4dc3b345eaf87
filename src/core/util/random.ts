/**
 * Seeded randomness. Everything in DreamGym that looks random must be replayable from a seed, so no code in
 * src/core calls Math.random.
 */

/** 32-bit FNV-1a hash of a string: turns ids like "shop:test:17" into seeds. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Murmur3's finaliser: spreads the bits of a 32-bit value so that low bits and the sign bit are independent. */
export function mix(h: number): number {
  let x = h >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Order-sensitive combination of two hashes (feature hashing of tuples without building strings). */
export function combine(a: number, b: number): number {
  return mix((Math.imul(a ^ 0x9e3779b9, 0x01000193) + b) >>> 0);
}

/** Mulberry32: small, fast and good enough for simulation (not for cryptography). */
export class Rng {
  private state: number;

  constructor(seed: number | string) {
    this.state = (typeof seed === "string" ? hashString(seed) : seed) >>> 0;
  }

  /** The whole generator state: `new Rng(state)` continues exactly where this one is (for resumable runs). */
  get state32(): number {
    return this.state;
  }

  set state32(value: number) {
    this.state = value >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both ends included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("Rng.pick: cannot pick from an empty list");
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** k distinct items in random order (all of them when k >= length). */
  sample<T>(items: readonly T[], k: number): T[] {
    return this.shuffle(items).slice(0, Math.max(0, k));
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** Standard normal, Box–Muller. */
  normal(): number {
    const u = Math.max(this.next(), 1e-12);
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
