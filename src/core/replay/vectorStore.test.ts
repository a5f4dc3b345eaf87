import { describe, expect, it } from "vitest";
import wabtInit from "wabt";
import { decodeBytes } from "../util/base64";
import { dotAt } from "./ivf";
import { DOT_WASM, DOT_WAT, VectorStore } from "./vectorStore";

function random(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return (seed / 2 ** 31) * 2 - 1;
  };
}

describe("the vector store's SIMD kernel", () => {
  it("is the assembled text it documents", async () => {
    const wabt = await wabtInit();
    const module = wabt.parseWat("dot.wat", DOT_WAT, { simd: true });
    expect(Array.from(new Uint8Array(module.toBinary({}).buffer))).toEqual(Array.from(decodeBytes(DOT_WASM)));
    module.destroy();
  });

  it("scores every row as dotAt does, to the bit, as the store grows and the query changes", () => {
    for (const dimension of [256, 12, 10]) {
      const next = random(dimension);
      const store = new VectorStore(dimension, 2);
      const rows: Float32Array[] = [];
      // Past the first memory page and several doublings.
      for (let r = 0; r < 300; r++) {
        const row = Float32Array.from({ length: dimension }, () => (r % 7 === 3 ? 0 : next()));
        rows.push(row);
        store.set(r, row);
      }
      for (let q = 0; q < 5; q++) {
        const query = Float32Array.from({ length: dimension }, next);
        store.setQuery(query);
        rows.forEach((row, r) => {
          expect(store.score(r)).toBe(dotAt(query, 0, row, 0, dimension));
        });
        // A batch of rows in any order, scored in one call, gives each row's score.
        const batch = rows.map((_, r) => (r * 37 + q) % rows.length);
        batch.forEach((r, k) => {
          store.batchRows[k] = r;
        });
        store.scoreBatch(batch.length);
        batch.forEach((r, k) => {
          expect(store.batchScores[k]).toBe(dotAt(query, 0, rows[r]!, 0, dimension));
        });
      }
      expect(Array.from(store.vectors.subarray(0, dimension))).toEqual(Array.from(rows[0]!));
    }
  });
});
