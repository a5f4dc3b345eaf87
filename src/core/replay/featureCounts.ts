/**
 * Counts of hashed features (uint32 keys), iterated in insertion order. The embedder sums a text's features into
 * its vector in that order, so it must be kept for vectors to stay bit-identical; a Map keeps it too, but boxes
 * every key above 2^31 and grows its tables per text. This open-addressing table is reused from text to text.
 */
export class FeatureCounts {
  /** Entry index + 1 per slot; 0 is empty. Linear probing, at most half full. */
  private slots = new Int32Array(1024);
  private shift = 32 - 10;
  /** Per entry, in insertion order: its key, its count and the slot that holds it. */
  keys = new Uint32Array(512);
  counts = new Int32Array(512);
  private where = new Int32Array(512);
  size = 0;

  clear(): void {
    for (let e = 0; e < this.size; e++) this.slots[this.where[e]!] = 0;
    this.size = 0;
  }

  /** Adds one to the key's count. */
  bump(key: number): void {
    const mask = this.slots.length - 1;
    let slot = Math.imul(key, 0x9e3779b1) >>> this.shift;
    for (;;) {
      const entry = this.slots[slot]!;
      if (entry === 0) break;
      if (this.keys[entry - 1] === key) {
        this.counts[entry - 1]!++;
        return;
      }
      slot = (slot + 1) & mask;
    }
    if (this.size === this.keys.length) {
      this.grow();
      this.bump(key);
      return;
    }
    const e = this.size++;
    this.keys[e] = key;
    this.counts[e] = 1;
    this.where[e] = slot;
    this.slots[slot] = e + 1;
  }

  /** Doubles the table and re-inserts every entry in its order. */
  private grow(): void {
    const capacity = this.keys.length * 2;
    const keys = new Uint32Array(capacity);
    const counts = new Int32Array(capacity);
    keys.set(this.keys);
    counts.set(this.counts);
    this.keys = keys;
    this.counts = counts;
    this.where = new Int32Array(capacity);
    this.slots = new Int32Array(capacity * 2);
    this.shift--;
    const mask = this.slots.length - 1;
    for (let e = 0; e < this.size; e++) {
      let slot = Math.imul(keys[e]!, 0x9e3779b1) >>> this.shift;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = e + 1;
      this.where[e] = slot;
    }
  }
}
