import { describe, expect, it } from "vitest";
import { markdown, type RunOutcome, summarise } from "../bench/table/report";
import { SCALES, type TableRow } from "../bench/table/spec";

const ROW: TableRow = {
  key: "imported-only/grpo",
  label: "Imported logs only (GRPO)",
  algorithm: "grpo",
  config: {},
};
const REASON = "An untrained policy succeeds 72% of the time in the synthetic environment, 62 points above …";

const outcome = (seed: number, trustworthy: boolean | undefined): RunOutcome => ({
  domain: "shop",
  seed,
  key: ROW.key,
  finalSuccess: 0.2,
  proxy: {
    syntheticSuccess: 0.9,
    confidence: 0.8,
    actionAgreement: 0.1,
    ...(trustworthy === undefined ? {} : { trust: { trustworthy, reasons: trustworthy ? [] : [REASON] } }),
  },
});

const table = (outcomes: RunOutcome[]) =>
  markdown(summarise("shop", [ROW], outcomes), {
    commit: "abc",
    scale: SCALES.quick,
    mode: "quick",
    minutes: 1,
    date: "today",
  });

describe("the table's proxy rows", () => {
  it("mark the synthetic success of seeds whose proxies the held-out logs found untrustworthy, with the reasons", () => {
    const summary = summarise("shop", [ROW], [outcome(0, false), outcome(1, true), outcome(2, false)])[0]!;
    expect(summary.proxies).toMatchObject({ untrustworthy: 2, judged: 3, reasons: [REASON] });
    const md = table([outcome(0, false), outcome(1, true), outcome(2, false)]);
    expect(md).toContain("| Imported logs only (GRPO) | 90.0 ± 0.0 ⚠ untrustworthy (2/3 seeds) |");
    expect(md).toContain(`Why Imported logs only (GRPO)'s proxies are untrustworthy:\n- ${REASON}`);
  });

  it("leave a row unmarked when every verdict passed, or when the runs had none", () => {
    for (const outcomes of [[outcome(0, true)], [outcome(0, undefined)]]) {
      const md = table(outcomes);
      expect(md).toContain("| Imported logs only (GRPO) | 90.0 ± 0.0 |");
      expect(md).not.toContain("untrustworthy (");
    }
  });
});
