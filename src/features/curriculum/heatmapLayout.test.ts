import { describe, expect, it } from "vitest";
import {
  cellAt,
  colourAt,
  labelEvery,
  layoutHeatmap,
  PALETTE,
  paletteIndex,
  scaleMax,
} from "./heatmapLayout";

describe("heatmap layout", () => {
  it("fits 500 tasks × 100 iterations into thin unlabelled rows", () => {
    const l = layoutHeatmap(500, 100, 1100);
    expect(l).toMatchObject({ cellH: 3, gutter: 0, cellW: 11, width: 1100, height: 20 + 1500 });
  });

  it("labels rows when there are few tasks, and caps cell width", () => {
    const l = layoutHeatmap(12, 4, 1000);
    expect(l.cellH).toBe(20);
    expect(l.gutter).toBe(300);
    expect(l.cellW).toBe(64);
  });

  it("hit-tests the pointer with the drawing's geometry", () => {
    const l = layoutHeatmap(10, 5, 800);
    expect(cellAt(l, l.gutter + 0.5, l.header + 0.5)).toEqual({ row: 0, col: 0 });
    expect(cellAt(l, l.gutter + l.cellW * 4.5, l.header + l.cellH * 9.5)).toEqual({ row: 9, col: 4 });
    expect(cellAt(l, l.gutter - 1, l.header + 1)).toBeNull();
    expect(cellAt(l, l.gutter + l.cellW * 5 + 1, l.header + 1)).toBeNull();
    expect(cellAt(l, l.gutter + 1, l.header + l.cellH * 10 + 1)).toBeNull();
  });

  it("colours from light to dark on a scale of at least 0.25", () => {
    expect(colourAt(0)).toBe("rgb(224,231,255)");
    expect(colourAt(1)).toBe("rgb(30,27,75)");
    expect(PALETTE).toHaveLength(256);
    expect(paletteIndex(0.25, scaleMax(0.1))).toBe(255);
    expect(paletteIndex(0.125, scaleMax(0.1))).toBe(128);
    expect(scaleMax(0.4)).toBe(0.4);
    expect(labelEvery(11)).toBe(5);
    expect(labelEvery(40)).toBe(1);
  });
});
