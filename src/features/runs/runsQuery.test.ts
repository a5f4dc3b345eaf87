import { describe, expect, it } from "vitest";
import { applyQuery, filterOptions, type QueriedRun, queryOf, queryString, runsCount } from "./runsQuery";

const run = (over: Partial<QueriedRun> & { name: string }): QueriedRun => ({
  method: "dreamgym",
  domain: "shop",
  algorithm: "grpo",
  status: "succeeded",
  tags: [],
  notes: null,
  createdAt: new Date("2026-01-01T00:00:00Z"),
  finalSuccess: null,
  ...over,
});

const runs = [
  run({ name: "demo", tags: ["baseline"], finalSuccess: 0.3, createdAt: new Date("2026-01-01") }),
  run({
    name: "s2r run 10",
    method: "dreamgym-s2r",
    notes: "KL spikes after iteration 3",
    finalSuccess: 0.6,
    createdAt: new Date("2026-01-03"),
  }),
  run({ name: "s2r run 9", method: "dreamgym-s2r", status: "running", createdAt: new Date("2026-01-02") }),
  run({
    name: "house ppo",
    domain: "household",
    algorithm: "ppo",
    status: "failed",
    tags: ["ablation", "baseline"],
  }),
];
const none = queryOf(new URLSearchParams());

describe("applyQuery", () => {
  it("lists newest first by default", () => {
    expect(applyQuery(runs, none).map((r) => r.name)).toEqual([
      "s2r run 10",
      "s2r run 9",
      "demo",
      "house ppo",
    ]);
  });

  it("searches name, method label, domain, tags and notes, every word", () => {
    const names = (q: string) => applyQuery(runs, { ...none, q }).map((r) => r.name);
    expect(names("kl spikes")).toEqual(["s2r run 10"]);
    expect(names("DreamGym-S2R")).toEqual(["s2r run 10", "s2r run 9"]);
    expect(names("household")).toEqual(["house ppo"]);
    expect(names("ablation")).toEqual(["house ppo"]);
    expect(names("baseline demo")).toEqual(["demo"]);
    expect(names("nothing like it")).toEqual([]);
  });

  it("filters by status, method, domain, algorithm and tag together", () => {
    expect(applyQuery(runs, { ...none, tag: "baseline" }).map((r) => r.name)).toEqual(["demo", "house ppo"]);
    expect(applyQuery(runs, { ...none, tag: "baseline", algorithm: "ppo" }).map((r) => r.name)).toEqual([
      "house ppo",
    ]);
    expect(applyQuery(runs, { ...none, method: "dreamgym-s2r", status: "running" })).toHaveLength(1);
    expect(applyQuery(runs, { ...none, domain: "shop" })).toHaveLength(3);
  });

  it("sorts by name (numbers as numbers), final success (none last) and status", () => {
    const by = (sort: "name" | "success" | "status") =>
      applyQuery(runs, { ...none, sort }).map((r) => r.name);
    expect(by("name")).toEqual(["demo", "house ppo", "s2r run 9", "s2r run 10"]);
    expect(by("success")).toEqual(["s2r run 10", "demo", "s2r run 9", "house ppo"]);
    expect(by("status")[0]).toBe("s2r run 9");
  });
});

describe("the query in the URL", () => {
  it("round-trips, leaving defaults out and other parameters in", () => {
    const q = { ...none, q: "kl spikes", tag: "baseline", sort: "success" as const };
    const text = queryString(q, new URLSearchParams("launched=abc"));
    expect(text).toBe("launched=abc&q=kl+spikes&tag=baseline&sort=success");
    expect(queryOf(new URLSearchParams(text))).toEqual(q);
    expect(queryString(none)).toBe("");
  });
  it("reads an unknown sort as newest first", () => {
    expect(queryOf(new URLSearchParams("sort=bogus")).sort).toBe("created");
  });
});

describe("filterOptions and runsCount", () => {
  it("offers the values the runs have", () => {
    expect(filterOptions(runs).tag).toEqual(["ablation", "baseline"]);
    expect(filterOptions(runs).domain).toEqual(["household", "shop"]);
  });
  it("says 1 run, not 1 runs", () => {
    expect(runsCount(1, 1)).toBe("1 run");
    expect(runsCount(0, 0)).toBe("0 runs");
    expect(runsCount(2, 5)).toBe("2 of 5 runs");
    expect(runsCount(1, 5)).toBe("1 of 5 runs");
  });
});
