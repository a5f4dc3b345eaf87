import { describe, expect, it } from "vitest";
import { chartData, smoothedKey } from "./chartData";
import type { PlotRow } from "./xAxis";

const rows: PlotRow[] = [
  { iteration: 1, x: 1, loss: 1, kl: null },
  { iteration: 2, x: 2, loss: 0.1, kl: 0.02 },
  { iteration: 3, x: 3, loss: 0, kl: null },
  { iteration: 4, x: 4, loss: 0.01, kl: 0.001 },
];
const series = [
  { key: "loss", label: "loss", color: "#000" },
  { key: "kl", label: "KL", color: "#111" },
];

describe("chartData", () => {
  it("keeps values as they are without smoothing, zoom or log", () => {
    const d = chartData(rows, series, { smoothing: 0, scale: "linear", range: null });
    expect(d.rows.map((r) => r.loss)).toEqual([1, 0.1, 0, 0.01]);
    expect(d.rows[0]?.[smoothedKey("loss")]).toBeUndefined();
    expect(d.points).toBe(4);
    expect(d.yDomain?.[0]).toBe(0);
  });

  it("drops zero on a log axis and spans the decades left", () => {
    const d = chartData(rows, series, { smoothing: 0, scale: "log", range: null });
    expect(d.rows.map((r) => r.loss)).toEqual([1, 0.1, null, 0.01]);
    expect(d.yDomain).toEqual([0.001, 1]);
  });

  it("smooths each series over its own points only, before the zoom", () => {
    const d = chartData(rows, series, { smoothing: 0.5, scale: "linear", range: [3, 4] });
    expect(d.rows.map((r) => r.x)).toEqual([3, 4]);
    // KL has points at x 2 and 4: its second smoothed value averages those two, not the gap between.
    expect(d.rows[1]?.[smoothedKey("kl")]).toBeCloseTo((0.5 * 0.5 * 0.02 + 0.5 * 0.001) / 0.75, 12);
    expect(d.rows[0]?.[smoothedKey("kl")]).toBeNull();
    // The y range follows what is on screen.
    expect(d.yDomain?.[1]).toBeLessThan(1);
  });
});
