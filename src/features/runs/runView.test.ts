import { describe, expect, it } from "vitest";
import { type RunSource, runView } from "./runView";

const metric = (iteration: number, over: Partial<RunSource["metrics"][number]> = {}) => ({
  iteration,
  syntheticSuccess: 0.2 * iteration,
  realSuccess: null,
  simSuccess: null,
  meanReward: 0.1 * iteration,
  realTransitions: 0,
  syntheticTransitions: 100 * iteration,
  extra: null,
  createdAt: new Date(Date.UTC(2026, 0, 1, 0, iteration)),
  ...over,
});

const base: RunSource = {
  kind: "training",
  domain: "shop",
  domainKind: "built-in",
  iteration: 4,
  finalRealSuccess: 0.3,
  finalSimSuccess: 0.4,
  untrainedRealSuccess: 0.1,
  proxy: null,
  metrics: [metric(1), metric(2, { realSuccess: 0.45, simSuccess: 0.4 }), metric(3), metric(4)],
};

describe("runView", () => {
  it("ends a real-domain run's success curves with its final evaluation and measures its gap", () => {
    const view = runView(base);
    expect(view).toMatchObject({ imported: false, external: false, measuresGap: true, finalAt: 4 });
    expect(view.reference).toEqual({ y: 0.1, label: "untrained" });
    const last = view.successRows.at(-1)!;
    expect(last).toMatchObject({ iteration: 4, realSuccess: 0.3, simSuccess: 0.4 });
    expect(view.gapRows.at(-1)!.simGap).toBeCloseTo(0.1);
    // The rows themselves keep what the metrics recorded.
    expect(view.rows.at(-1)!.realSuccess).toBeNull();
  });

  it("names an imported-domain run's figures proxies, with no gap, ending with its final proxies", () => {
    const view = runView({
      ...base,
      domain: "web-admin",
      domainKind: "imported",
      finalRealSuccess: null,
      finalSimSuccess: null,
      untrainedRealSuccess: null,
      proxy: {
        untrained: { syntheticSuccess: 0.05 },
        final: { syntheticSuccess: 0.5, actionAgreement: 0.6, confidence: 0.7, judgeSuccess: null },
      },
    });
    expect(view).toMatchObject({ imported: true, measuresGap: false, finalAt: null, hasJudge: false });
    expect(view.reference).toEqual({ y: 0.05, label: "untrained" });
    expect(view.proxyRows.at(-1)).toMatchObject({
      iteration: 4,
      simSuccess: 0.5,
      proxyAgreement: 0.6,
      proxyConfidence: 0.7,
    });
  });

  it("treats an external trainer's run as a real-domain run without a gap when it has no synthetic figures", () => {
    const view = runView({ ...base, kind: "external", finalSimSuccess: null, metrics: [metric(1)] });
    expect(view).toMatchObject({ external: true, imported: false, measuresGap: false });
  });

  it("gives a remote domain's run real figures and its gap, as a built-in one's", () => {
    const view = runView({ ...base, domain: "helpdesk", domainKind: "remote" });
    expect(view).toMatchObject({ imported: false, measuresGap: true, finalAt: 4 });
    expect(view.reference).toEqual({ y: 0.1, label: "untrained" });
  });

  it("tells a domain that is no longer listed by the run's figures: proxies only where it was imported", () => {
    expect(runView({ ...base, domain: "gone", domainKind: null }).imported).toBe(false);
    const proxied = {
      untrained: null,
      final: { syntheticSuccess: 0.5, actionAgreement: null, confidence: null, judgeSuccess: null },
    };
    expect(runView({ ...base, domain: "gone", domainKind: null, proxy: proxied }).imported).toBe(true);
  });

  it("carries the update's loss, KL, entropy and clip fraction as chart columns", () => {
    const view = runView({
      ...base,
      metrics: [
        metric(1, {
          extra: { update: { policyLoss: -0.1, approxKl: 0.02, entropy: 1.1, clipFraction: 0.3 } },
        }),
      ],
    });
    expect(view.rows[0]).toMatchObject({
      policyLoss: -0.1,
      approxKl: 0.02,
      entropy: 1.1,
      clipFraction: 0.3,
      refKl: null,
    });
  });
});
