import { describe, expect, it } from "vitest";
import { decodeCells, encodeCells } from "./cellCodec";

describe("heatmap cell codec", () => {
  it("round-trips variances within half a step and keeps missing cells missing", () => {
    const values = [0, 0.25, -1, 0.1875, 0.0001, -1, 0.2499];
    const packed = encodeCells(values);
    expect(packed.data).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const back = Array.from(decodeCells(packed));
    expect(back).toHaveLength(values.length);
    values.forEach((v, i) => {
      if (v < 0) expect(back[i]).toBe(-1);
      else expect(Math.abs((back[i] as number) - v)).toBeLessThanOrEqual(packed.step / 2 + 1e-12);
    });
    expect(back[1]).toBeCloseTo(0.25, 12);
  });

  it("handles an all-missing or all-zero grid and a large one", () => {
    expect(Array.from(decodeCells(encodeCells([-1, -1])))).toEqual([-1, -1]);
    expect(Array.from(decodeCells(encodeCells([0, 0])))).toEqual([0, 0]);
    expect(decodeCells(encodeCells([]))).toHaveLength(0);
    const big = Array.from({ length: 50_000 }, (_, i) => (i % 7 === 0 ? -1 : (i % 100) / 400));
    const packed = encodeCells(big);
    expect(packed.data.length).toBeLessThan(140_000);
    const back = decodeCells(packed);
    expect(back[7]).toBe(-1);
    expect(back[99]).toBeCloseTo(99 / 400, 5);
  });
});
