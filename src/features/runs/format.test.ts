import { describe, expect, it } from "vitest";
import { budgetText, iterationsText, progressPercent, seriesStyle } from "./format";

describe("run progress as shown", () => {
  it("says “N of M” only when the config fixes the iteration count", () => {
    expect(iterationsText(3, 10)).toBe("3 of 10 iterations");
    // DreamGym-S2R's quick run: 10 synthetic iterations, then as many real ones as its budget takes.
    expect(iterationsText(13, null)).toBe("13 iterations");
    expect(iterationsText(1, null)).toBe("1 iteration");
    expect(iterationsText(1_200, 2_000)).toBe("1,200 of 2,000 iterations");
  });

  it("draws the bar from progress, clamped to 0..100 %", () => {
    expect(progressPercent(0.5)).toBe(50);
    expect(progressPercent(1.3)).toBe(100);
    expect(progressPercent(-0.2)).toBe(0);
    expect(progressPercent(Number.NaN)).toBe(0);
    expect(progressPercent(null)).toBe(0);
  });

  it("shows the real transitions spent of the budget, for methods with one", () => {
    expect(budgetText(640, 1_000)).toBe("640 / 1,000 real transitions");
    expect(budgetText(0, null)).toBeNull();
  });
});

describe("compared series", () => {
  it("differ from each other in dash and marker as well as colour", () => {
    const styles = Array.from({ length: 12 }, (_, i) => seriesStyle(i));
    expect(new Set(styles.map((s) => `${s.dash}|${s.shape}`)).size).toBe(12);
    expect(new Set(styles.map((s) => s.color)).size).toBe(12);
    for (let i = 1; i < styles.length; i++) {
      expect(styles[i]?.dash, `series ${i}`).not.toBe(styles[i - 1]?.dash);
      expect(styles[i]?.shape, `series ${i}`).not.toBe(styles[i - 1]?.shape);
    }
  });
});
