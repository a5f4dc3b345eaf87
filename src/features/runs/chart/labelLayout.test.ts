import { describe, expect, it } from "vitest";
import { type LabelWant, layoutLabels } from "./labelLayout";

const BOX = { top: 0, bottom: 200, height: 14 };

function overlaps(placed: LabelWant[], height: number): boolean {
  const ys = placed.map((p) => p.y).sort((a, b) => a - b);
  return ys.some((y, i) => i > 0 && y - (ys[i - 1] as number) < height - 1e-9);
}

describe("layoutLabels", () => {
  it("leaves labels that do not collide where they want to be", () => {
    const wants = [
      { id: "a", y: 20 },
      { id: "b", y: 100 },
      { id: "c", y: 180 },
    ];
    expect(layoutLabels(wants, BOX)).toEqual(wants);
  });

  it("separates two runs whose finals are equal, keeping their order", () => {
    const placed = layoutLabels(
      [
        { id: "r0", y: 90 },
        { id: "r1", y: 90 },
      ],
      BOX,
    );
    expect(placed.map((p) => p.id)).toEqual(["r0", "r1"]);
    expect((placed[1] as LabelWant).y - (placed[0] as LabelWant).y).toBe(14);
    expect(placed[0]?.y).toBe(90);
  });

  it("pushes a crowd at the bottom edge upward, inside the box", () => {
    const placed = layoutLabels(
      ["a", "b", "c", "d"].map((id) => ({ id, y: 199 })),
      BOX,
    );
    expect(overlaps(placed, 14)).toBe(false);
    for (const p of placed) expect(p.y).toBeLessThanOrEqual(200 - 7);
    expect(placed.map((p) => p.y)).toEqual([151, 165, 179, 193]);
  });

  it("never overlaps and keeps the wanted order, for any set of wants", () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let trial = 0; trial < 500; trial++) {
      const n = 1 + Math.floor(rand() * 12);
      const wants = Array.from({ length: n }, (_, i) => ({ id: `r${i}`, y: rand() * 260 - 30 }));
      const placed = layoutLabels(wants, BOX);
      expect(overlaps(placed, 14)).toBe(false);
      // Wants beyond an edge count as at the edge, where ties keep the input order.
      const at = (i: number) => Math.min(193, Math.max(7, wants[i]!.y));
      const byWant = [...wants.keys()].sort((a, b) => at(a) - at(b) || a - b);
      const ys = byWant.map((i) => placed[i]!.y);
      expect(ys).toEqual([...ys].sort((a, b) => a - b));
      // Twelve labels of 14 px fit in 200 px: all stay inside.
      for (const p of placed) {
        expect(p.y).toBeGreaterThanOrEqual(7);
        expect(p.y).toBeLessThanOrEqual(193);
      }
    }
  });

  it("stacks from the top when the column cannot hold them all", () => {
    const placed = layoutLabels(
      Array.from({ length: 20 }, (_, i) => ({ id: `r${i}`, y: 100 })),
      BOX,
    );
    expect(overlaps(placed, 14)).toBe(false);
    expect(placed[0]?.y).toBe(7);
  });
});
