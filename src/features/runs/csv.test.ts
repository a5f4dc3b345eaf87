import { describe, expect, it } from "vitest";
import { parseCsv } from "../../../e2e/support/csv";
import { csvField, fileSlug, toCsv } from "./csv";
import { metricsCsv } from "./metricsCsv";

describe("csv", () => {
  it("quotes commas, quotes and line breaks, and nothing else", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
    expect(csvField(null)).toBe("");
    expect(csvField(0.25)).toBe("0.25");
  });

  it("reads back as written, awkward names included", () => {
    const names = ['a, "quoted" run', "line\nbreak", "plain"];
    const text = toCsv(
      ["name", "value"],
      names.map((name, i) => ({ name, value: i })),
    );
    expect(parseCsv(text)).toEqual([["name", "value"], ...names.map((n, i) => [n, String(i)])]);
  });

  it("makes file names of run names", () => {
    expect(fileSlug("pm: shop DreamGym GRPO, 3 iterations")).toBe("pm-shop-dreamgym-grpo-3-iterations");
    expect(fileSlug("!!!")).toBe("run");
  });
});

describe("metricsCsv", () => {
  const metric = (iteration: number, extra: unknown, at: string) => ({
    iteration,
    syntheticSuccess: 0.5,
    realSuccess: iteration === 2 ? 0.25 : null,
    simSuccess: iteration === 2 ? 0.75 : null,
    meanReward: 0.4,
    realTransitions: 0,
    syntheticTransitions: 40 * iteration,
    createdAt: at,
    extra,
  });

  it("writes every run's iterations with the update's figures, blank where a run has none", () => {
    const text = metricsCsv([
      {
        id: "r1",
        name: 'shop, "quick"',
        startedAt: "2026-01-01T00:00:00Z",
        createdAt: "2026-01-01T00:00:00Z",
        metrics: [
          metric(1, { phase: "synthetic", update: { approxKl: 0.01 } }, "2026-01-01T00:00:10Z"),
          metric(2, { phase: "synthetic", update: { approxKl: 0.02 } }, "2026-01-01T00:00:25Z"),
        ],
      },
      {
        id: "r2",
        name: "bc",
        startedAt: null,
        createdAt: "2026-01-01T00:00:00Z",
        metrics: [metric(1, { update: { loss: 1.5 } }, "2026-01-01T00:00:05Z")],
      },
    ]);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([
      "run_id",
      "run_name",
      "iteration",
      "wall_clock_s",
      "real_transitions",
      "synthetic_transitions",
      "synthetic_success",
      "real_success",
      "sim_success",
      "sim_to_real_gap",
      "mean_reward",
      "phase",
      "update.approxKl",
      "update.loss",
    ]);
    expect(rows).toHaveLength(3);
    const at = (row: string[] | undefined, column: string) => row?.[header?.indexOf(column) ?? -1];
    expect(at(rows[0], "run_name")).toBe('shop, "quick"');
    expect(at(rows[1], "wall_clock_s")).toBe("25.0");
    expect(at(rows[1], "sim_to_real_gap")).toBe("0.5");
    expect(at(rows[1], "update.approxKl")).toBe("0.02");
    expect(at(rows[1], "update.loss")).toBe("");
    expect(at(rows[2], "update.loss")).toBe("1.5");
    expect(at(rows[2], "real_success")).toBe("");
  });
});
