/**
 * Length of the longest common subsequence of two id sequences, bit-parallel (Allison & Dix 1986; Hyyrö 2004):
 * one pass over `b`, a few 32-bit words of work per element. It is what a minimal diff of the two leaves in
 * common, without the diff: scoring an analogy needs only this number, and the diff's substitutions are wanted
 * for the few analogies that get used.
 */
export class LcsPattern {
  /** Per distinct id of the pattern, the bit mask of where it occurs: `words` 32-bit words from `rowOf(id)`. */
  private readonly masks: Uint32Array;
  private readonly rowOf = new Map<number, number>();
  private readonly words: number;
  private readonly v: Uint32Array;

  constructor(private readonly pattern: Int32Array) {
    this.words = Math.max(1, Math.ceil(pattern.length / 32));
    for (const id of pattern) if (!this.rowOf.has(id)) this.rowOf.set(id, this.rowOf.size);
    this.masks = new Uint32Array(this.rowOf.size * this.words);
    pattern.forEach((id, i) => {
      this.masks[this.rowOf.get(id)! * this.words + (i >>> 5)]! |= 1 << (i & 31);
    });
    this.v = new Uint32Array(this.words);
  }

  /** LCS length of the pattern and `text`. */
  lcs(text: Int32Array): number {
    const { masks, words, v, rowOf } = this;
    v.fill(0xffffffff);
    for (let j = 0; j < text.length; j++) {
      const row = rowOf.get(text[j]!);
      if (row === undefined) continue; // no match: V' = (V + 0) | V = V
      const at = row * words;
      // V' = (V + U) | (V − U) with U = V & M; U's bits are V's, so V − U = V & ~U and only the sum carries.
      let carry = 0;
      for (let w = 0; w < words; w++) {
        const vw = v[w]!;
        const u = vw & masks[at + w]!;
        const sum = vw + (u >>> 0) + carry;
        carry = sum > 0xffffffff ? 1 : 0;
        v[w] = (sum >>> 0) | (vw & ~u);
      }
    }
    // Each zero bit among the pattern's positions is one matched element.
    let common = 0;
    for (let i = 0; i < this.pattern.length; i++) if ((v[i >>> 5]! & (1 << (i & 31))) === 0) common++;
    return common;
  }
}
