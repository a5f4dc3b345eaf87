import { describe, expect, it } from "vitest";
import { comparedRows } from "./chart/compareRows";
import { finalIteration, proxyOfExtra, withFinal } from "./curves";

const metric = (iteration: number, realSuccess: number | null, syntheticSuccess: number | null = null) => ({
  iteration,
  realSuccess,
  syntheticSuccess,
  meanReward: null,
});

describe("the final evaluation on the curves", () => {
  it("is the real-success curve's last point, at the run's last iteration, in place of that iteration's eval", () => {
    // The run: evaluated every 5 iterations (16% at 10), finally 20%; the header says 20%.
    const rows = [
      { iteration: 5, realSuccess: 0.1, syntheticSuccess: 0.3 },
      { iteration: 10, realSuccess: 0.16, syntheticSuccess: 0.4 },
    ];
    const at = finalIteration(10, rows);
    const plotted = withFinal(rows, "realSuccess", 0.2, at);
    expect(plotted.at(-1)).toEqual({ iteration: 10, realSuccess: 0.2, syntheticSuccess: 0.4 });
    expect(plotted.filter((r) => r.realSuccess !== null).at(-1)?.realSuccess).toBe(0.2);
    expect(rows[1]?.realSuccess).toBe(0.16); // not changed in place
  });

  it("adds a point when the last iteration had no row (S2R's real phase, or a method that does not iterate)", () => {
    const rows = [
      { iteration: 5, realSuccess: 0.1 },
      { iteration: 10, realSuccess: 0.16 },
    ];
    expect(withFinal(rows, "realSuccess", 0.28, finalIteration(13, rows)).map((r) => r.iteration)).toEqual([
      5, 10, 13,
    ]);
    expect(withFinal([], "realSuccess", 0.3, finalIteration(0, []))).toEqual([
      { iteration: 0, realSuccess: 0.3 },
    ]);
    // A run that has not finished has no final figure: nothing is added.
    expect(withFinal(rows, "realSuccess", null, 13)).toEqual(rows);
  });

  it("ends each compared run's real-success line with its own final, at its own last iteration", () => {
    const a = {
      iteration: 13,
      finalRealSuccess: 0.28,
      rows: [metric(5, 0.1, 0.3), metric(10, 0.16, 0.4)],
    };
    const b = { iteration: 4, finalRealSuccess: 0.2, rows: [metric(2, 0.1, 0.2), metric(4, 0.12, 0.3)] };
    const running = { iteration: 1, finalRealSuccess: null, rows: [metric(1, 0.05)] };
    const real = comparedRows([a, b, running], "realSuccess");
    expect(real.finals).toEqual([13, 4, null]);
    const last = (key: string) => real.rows.filter((r) => r[key] !== null && r[key] !== undefined).at(-1);
    expect(last("r0")).toMatchObject({ iteration: 13, r0: 0.28 });
    expect(last("r1")).toMatchObject({ iteration: 4, r1: 0.2 });
    expect(last("r2")).toMatchObject({ iteration: 1, r2: 0.05 });
    expect(real.rows.map((r) => r.iteration)).toEqual([1, 2, 4, 5, 10, 13]);
    // The synthetic curve has no final evaluation.
    const synthetic = comparedRows([a, b], "syntheticSuccess");
    expect(synthetic.finals).toEqual([null, null]);
    expect(synthetic.rows.map((r) => r.iteration)).toEqual([2, 4, 5, 10]);
  });

  it("places each compared run on the x axis by its own clock", () => {
    const a = { iteration: 2, finalRealSuccess: 0.5, rows: [metric(1, null, 0.2), metric(2, 0.4, 0.3)] };
    const b = { iteration: 1, finalRealSuccess: null, rows: [metric(1, null, 0.6)] };
    // Run a spends 100 transitions an iteration, run b 150.
    const real = comparedRows([a, b], "syntheticSuccess", [(it) => it * 100, (it) => it * 150]);
    expect(real.rows.map((r) => [r.x, r.r0 ?? null, r.r1 ?? null])).toEqual([
      [100, 0.2, null],
      [150, null, 0.6],
      [200, 0.3, null],
    ]);
    const finals = comparedRows([a, b], "realSuccess", [(it) => it * 100, (it) => it * 150]);
    expect(finals.finalXs).toEqual([200, null]);
    expect(finals.rows.at(-1)).toMatchObject({ x: 200, r0: 0.5 });
  });
});

describe("proxyOfExtra", () => {
  it("reads an imported-domain run's proxies from its metric's extra, and nothing from other runs'", () => {
    expect(
      proxyOfExtra({
        phase: "synthetic",
        proxy: { actionAgreement: 0.4, confidence: 0.9, agreementSteps: 12 },
      }),
    ).toEqual({
      proxyAgreement: 0.4,
      proxyConfidence: 0.9,
      proxyJudge: null,
    });
    expect(proxyOfExtra({ proxy: { agreementSteps: 0, judgeSuccess: 0.75, judged: 4 } })).toEqual({
      proxyAgreement: null,
      proxyConfidence: null,
      proxyJudge: 0.75,
    });
    expect(proxyOfExtra({ phase: "synthetic", update: { policyLoss: 1 } })).toEqual({});
    expect(proxyOfExtra(null)).toEqual({});
  });
});
