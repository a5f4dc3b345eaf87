import { describe, expect, it } from "vitest";
import type { CurveRow } from "../curves";
import { formatX, mergeByX, placeRows, xModeOf, xOfIteration } from "./xAxis";

const clock = [
  { iteration: 1, realTransitions: 0, syntheticTransitions: 40, createdAt: "2026-01-01T00:00:30Z" },
  { iteration: 2, realTransitions: 10, syntheticTransitions: 80, createdAt: "2026-01-01T00:01:10Z" },
];
const start = { startedAt: "2026-01-01T00:00:00Z", createdAt: "2025-12-31T23:59:00Z" };

describe("xOfIteration", () => {
  it("places iterations by cumulative real plus synthetic transitions", () => {
    const x = xOfIteration(clock, start, "transitions");
    expect([x(0), x(1), x(2), x(3)]).toEqual([0, 40, 90, null]);
  });

  it("places iterations by seconds since the run started", () => {
    const x = xOfIteration(clock, start, "time");
    expect([x(0), x(1), x(2)]).toEqual([0, 30, 70]);
  });

  it("counts from creation when a resume moved startedAt past the first iteration", () => {
    const x = xOfIteration(clock, { ...start, startedAt: "2026-01-01T00:01:00Z" }, "time");
    expect(x(1)).toBe(90);
  });

  it("is the identity on the iteration axis", () => {
    expect(xOfIteration([], start, "iteration")(7)).toBe(7);
  });
});

describe("placeRows and mergeByX", () => {
  const rows: CurveRow[] = [
    { iteration: 2, a: 0.5 },
    { iteration: 1, a: 0.2 },
    { iteration: 3, a: 0.9 },
  ];
  it("sorts by x and leaves out rows with no place", () => {
    const placed = placeRows(rows, xOfIteration(clock, start, "transitions"));
    expect(placed.map((r) => [r.x, r.a])).toEqual([
      [40, 0.2],
      [90, 0.5],
    ]);
  });

  it("joins runs' rows that share an x and keeps the others apart", () => {
    const merged = mergeByX([
      [
        { iteration: 1, x: 10, r0: 1 },
        { iteration: 2, x: 20, r0: 2 },
      ],
      [{ iteration: 1, x: 20, r1: 5 }],
    ]);
    expect(merged).toEqual([
      { iteration: 1, x: 10, r0: 1 },
      { iteration: 1, x: 20, r0: 2, r1: 5 },
    ]);
  });
});

describe("formatX and xModeOf", () => {
  it("formats each axis in its unit", () => {
    expect(formatX("iteration", 3)).toBe("3");
    expect(formatX("transitions", 12_500)).toBe("13k");
    expect(formatX("transitions", 1_500)).toBe("1.5k");
    expect(formatX("time", 45)).toBe("45s");
    expect(formatX("time", 65)).toBe("1m 05s");
    expect(formatX("time", 3720)).toBe("1h 02m");
  });
  it("reads an unknown mode as iteration", () => {
    expect(xModeOf("time")).toBe("time");
    expect(xModeOf("bogus")).toBe("iteration");
    expect(xModeOf(null)).toBe("iteration");
  });
});
