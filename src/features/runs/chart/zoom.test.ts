import { describe, expect, it } from "vitest";
import { dragRange, inRange } from "./zoom";

describe("zoom", () => {
  it("orders a drag either way and ignores a click", () => {
    expect(dragRange(8, 3)).toEqual([3, 8]);
    expect(dragRange(3, 8)).toEqual([3, 8]);
    expect(dragRange(5, 5)).toBeNull();
    expect(dragRange(undefined, 5)).toBeNull();
  });
  it("keeps the rows inside the range, ends included", () => {
    const rows = [1, 2, 3, 4, 5].map((x) => ({ x }));
    expect(inRange(rows, [2, 4]).map((r) => r.x)).toEqual([2, 3, 4]);
    expect(inRange(rows, null)).toHaveLength(5);
  });
});
