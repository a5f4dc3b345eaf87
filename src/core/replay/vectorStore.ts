import { decodeBytes } from "../policy/base64";
import { dotAt } from "./ivf";

/**
 * The kernel below, in WebAssembly's text format. It scores the float32 vector at byte `row` against the query
 * at byte 0 exactly as dotAt does: the same products in float64, added into the same four partial sums (the
 * lanes of two f64x2: elements 4i and 4i+1 in the first, 4i+2 and 4i+3 in the second), then (s0 + s1) + (s2 + s3).
 * WebAssembly never fuses a multiply and an add, so every score is dotAt's to the bit, about six times faster.
 * `dimension` must be a multiple of 4. vectorStore.test.ts assembles this text and checks it is DOT_WASM.
 */
export const DOT_WAT = `(module
  (memory (export "memory") 1)
  (func (export "dot") (param $row i32) (param $dim i32) (result f64)
    (local $i i32) (local $end i32) (local $a v128) (local $b v128)
    (local.set $end (i32.shl (local.get $dim) (i32.const 2)))
    (block $done
      (br_if $done (i32.eqz (local.get $end)))
      (loop $next
        (local.set $a (f64x2.add (local.get $a)
          (f64x2.mul
            (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $i)))
            (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $row) (local.get $i)))))))
        (local.set $b (f64x2.add (local.get $b)
          (f64x2.mul
            (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (local.get $i)))
            (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (i32.add (local.get $row) (local.get $i)))))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br_if $next (i32.lt_u (local.get $i) (local.get $end)))))
    (f64.add
      (f64.add (f64x2.extract_lane 0 (local.get $a)) (f64x2.extract_lane 1 (local.get $a)))
      (f64.add (f64x2.extract_lane 0 (local.get $b)) (f64x2.extract_lane 1 (local.get $b))))))`;

/** DOT_WAT assembled (wabt's wat2wasm with SIMD). */
export const DOT_WASM =
  "AGFzbQEAAAABBwFgAn9/AXwDAgEABQMBAAEHEAIGbWVtb3J5AgADZG90AAAKeQF3AgJ/AnsgAUECdCEDAkAgA0UNAANAIAQgAv1dAwD9XyAAIAJq/V0DAP1f/fIB/fABIQQgBSAC/V0DCP1fIAAgAmr9XQMI/V/98gH98AEhBSACQRBqIQIgAiADSQ0ACwsgBP0hACAE/SEBoCAF/SEAIAX9IQGgoAs=";

const PAGE = 65_536;

let compiled: WebAssembly.Module | null | undefined;
/** The kernel's module, or null where WebAssembly SIMD is missing (then scores come from dotAt). */
function kernel(): WebAssembly.Module | null {
  if (compiled !== undefined) return compiled;
  try {
    const bytes = decodeBytes(DOT_WASM);
    compiled =
      typeof WebAssembly === "object" && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
  } catch {
    compiled = null;
  }
  return compiled;
}

/**
 * Unit vectors of a partition, one row each, and the query they are scored against. With the kernel they live in
 * a WebAssembly memory (the query first, then the rows); without it, in a plain array scored by dotAt. Either way
 * `vectors` is a view of the rows (row r at r × dimension) and a score is dotAt(query, row).
 */
export class VectorStore {
  private readonly memory: WebAssembly.Memory | undefined;
  private readonly dot: ((row: number, dimension: number) => number) | undefined;
  /** Where the rows start in the memory (the query before them, padded to 16 bytes). */
  private readonly rowsAt: number;
  private query: Float32Array;
  vectors: Float32Array;

  constructor(
    readonly dimension: number,
    rows: number,
  ) {
    const module = dimension % 4 === 0 ? kernel() : null;
    this.rowsAt = Math.ceil((dimension * 4) / 16) * 16;
    if (module) {
      const instance = new WebAssembly.Instance(module);
      this.memory = instance.exports.memory as WebAssembly.Memory;
      this.dot = instance.exports.dot as (row: number, dimension: number) => number;
      this.grow(rows);
      this.query = new Float32Array(this.memory.buffer, 0, dimension);
      this.vectors = this.rowsView();
    } else {
      this.query = new Float32Array(dimension);
      this.vectors = new Float32Array(dimension * rows);
    }
  }

  /** Room for `rows` rows; their values are kept. */
  private ensure(rows: number): void {
    if (rows * this.dimension <= this.vectors.length) return;
    const capacity = Math.max(rows, 2 * (this.vectors.length / this.dimension));
    if (this.memory) {
      this.grow(capacity);
      // Growing the memory detaches every view of it.
      this.query = new Float32Array(this.memory.buffer, 0, this.dimension);
      this.vectors = this.rowsView();
      return;
    }
    const grown = new Float32Array(capacity * this.dimension);
    grown.set(this.vectors);
    this.vectors = grown;
  }

  set(row: number, unit: Float32Array): void {
    this.ensure(row + 1);
    this.vectors.set(unit, row * this.dimension);
  }

  /** The query the next scores are against (copied). */
  setQuery(query: Float32Array): void {
    this.query.set(query);
  }

  /** dotAt(query, row), to the bit. */
  score(row: number): number {
    return this.dot
      ? this.dot(this.rowsAt + row * this.dimension * 4, this.dimension)
      : dotAt(this.query, 0, this.vectors, row * this.dimension, this.dimension);
  }

  private grow(rows: number): void {
    const memory = this.memory!;
    const bytes = this.rowsAt + rows * this.dimension * 4;
    const pages = Math.ceil(bytes / PAGE) - memory.buffer.byteLength / PAGE;
    if (pages > 0) memory.grow(pages);
  }

  private rowsView(): Float32Array {
    const buffer = this.memory!.buffer;
    const rows = Math.floor((buffer.byteLength - this.rowsAt) / (this.dimension * 4));
    return new Float32Array(buffer, this.rowsAt, rows * this.dimension);
  }
}
