import { decodeBytes } from "../util/base64";
import { dotAt } from "./ivf";

/**
 * The kernel below, in WebAssembly's text format. `dot` scores the float32 vector at byte `row` against the query
 * at byte 0 exactly as dotAt does: the same products in float64, added into the same four partial sums (the
 * lanes of two f64x2: elements 4i and 4i+1 in the first, 4i+2 and 4i+3 in the second), then (s0 + s1) + (s2 + s3).
 * WebAssembly never fuses a multiply and an add, so every score is dotAt's to the bit, about six times faster.
 * `dots` scores a list of rows (int32 row numbers at byte `list`; row r at byte base + r × dimension × 4) into
 * float64s at byte `out`, so a scan crosses into WebAssembly once per batch instead of once per row.
 * `dimension` must be a multiple of 4. vectorStore.test.ts assembles this text and checks it is DOT_WASM.
 */
export const DOT_WAT = `(module
  (memory (export "memory") 1)
  (func $dot (export "dot") (param $row i32) (param $dim i32) (result f64)
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
      (f64.add (f64x2.extract_lane 0 (local.get $b)) (f64x2.extract_lane 1 (local.get $b)))))
  (func (export "dots") (param $list i32) (param $count i32) (param $dim i32) (param $base i32) (param $out i32)
    (local $k i32) (local $stride i32)
    (local.set $stride (i32.shl (local.get $dim) (i32.const 2)))
    (block $done
      (br_if $done (i32.eqz (local.get $count)))
      (loop $next
        (f64.store
          (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 3)))
          (call $dot
            (i32.add (local.get $base)
              (i32.mul (i32.load (i32.add (local.get $list) (i32.shl (local.get $k) (i32.const 2))))
                (local.get $stride)))
            (local.get $dim)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br_if $next (i32.lt_u (local.get $k) (local.get $count)))))))`;

/** DOT_WAT assembled (wabt's wat2wasm with SIMD). */
export const DOT_WASM =
  "AGFzbQEAAAABDwJgAn9/AXxgBX9/f39/AAMDAgABBQMBAAEHFwMGbWVtb3J5AgADZG90AAAEZG90cwABCr4BAncCAn8CeyABQQJ0IQMCQCADRQ0AA0AgBCAC/V0DAP1fIAAgAmr9XQMA/V/98gH98AEhBCAFIAL9XQMI/V8gACACav1dAwj9X/3yAf3wASEFIAJBEGohAiACIANJDQALCyAE/SEAIAT9IQGgIAX9IQAgBf0hAaCgC0QBAn8gAkECdCEGAkAgAUUNAANAIAQgBUEDdGogAyAAIAVBAnRqKAIAIAZsaiACEAA5AwAgBUEBaiEFIAUgAUkNAAsLCw==";

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

/** Rows a batch scores at most: the batch's row list and scores sit between the query and the rows. */
export const SCORE_BATCH = 2_048;

/**
 * Unit vectors of a partition, one row each, and the query they are scored against. With the kernel they live in
 * a WebAssembly memory (the query, then a batch's row list and scores, then the rows); without it, in plain
 * arrays scored by dotAt. Either way `vectors` is a view of the rows (row r at r × dimension) and a score is
 * dotAt(query, row).
 */
export class VectorStore {
  private readonly memory: WebAssembly.Memory | undefined;
  private readonly dot: ((row: number, dimension: number) => number) | undefined;
  private readonly dots:
    | ((list: number, count: number, dimension: number, base: number, out: number) => void)
    | undefined;
  /** Where the batch's row list, its scores and the rows start in the memory (each 16-byte aligned). */
  private readonly listAt: number;
  private readonly scoresAt: number;
  private readonly rowsAt: number;
  private query: Float32Array;
  vectors: Float32Array;
  /** The rows a batch scores (`scoreBatch`), and their scores after it: views that `set` may replace. */
  batchRows: Int32Array;
  batchScores: Float64Array;

  constructor(
    readonly dimension: number,
    rows: number,
  ) {
    const module = dimension % 4 === 0 ? kernel() : null;
    this.listAt = Math.ceil((dimension * 4) / 16) * 16;
    this.scoresAt = this.listAt + SCORE_BATCH * 4;
    this.rowsAt = this.scoresAt + SCORE_BATCH * 8;
    if (module) {
      const instance = new WebAssembly.Instance(module);
      this.memory = instance.exports.memory as WebAssembly.Memory;
      this.dot = instance.exports.dot as (row: number, dimension: number) => number;
      this.dots = instance.exports.dots as typeof this.dots;
      this.grow(rows);
      this.query = new Float32Array(this.memory.buffer, 0, dimension);
      this.vectors = this.rowsView();
      this.batchRows = new Int32Array(this.memory.buffer, this.listAt, SCORE_BATCH);
      this.batchScores = new Float64Array(this.memory.buffer, this.scoresAt, SCORE_BATCH);
    } else {
      this.query = new Float32Array(dimension);
      this.vectors = new Float32Array(dimension * rows);
      this.batchRows = new Int32Array(SCORE_BATCH);
      this.batchScores = new Float64Array(SCORE_BATCH);
    }
  }

  /** Room for `rows` rows; their values are kept. */
  private ensure(rows: number): void {
    if (rows * this.dimension <= this.vectors.length) return;
    const capacity = Math.max(rows, 2 * (this.vectors.length / this.dimension));
    if (this.memory) {
      this.grow(capacity);
      // Growing the memory detaches every view of it.
      const buffer = this.memory.buffer;
      this.query = new Float32Array(buffer, 0, this.dimension);
      this.vectors = this.rowsView();
      this.batchRows = new Int32Array(buffer, this.listAt, SCORE_BATCH);
      this.batchScores = new Float64Array(buffer, this.scoresAt, SCORE_BATCH);
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

  /** Scores the first `count` (at most SCORE_BATCH) rows of `batchRows` into `batchScores`, each as `score` would. */
  scoreBatch(count: number): void {
    if (this.dots) {
      this.dots(this.listAt, count, this.dimension, this.rowsAt, this.scoresAt);
      return;
    }
    const { batchRows, batchScores, dimension } = this;
    for (let k = 0; k < count; k++)
      batchScores[k] = dotAt(this.query, 0, this.vectors, batchRows[k]! * dimension, dimension);
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
