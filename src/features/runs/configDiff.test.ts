import { describe, expect, it } from "vitest";
import { configDiff, flattenConfig } from "./configDiff";

describe("configDiff", () => {
  const a = {
    name: "a",
    method: "dreamgym",
    rollouts: { groupSize: 4, temperature: 1 },
    experience: { k: 3, reasoning: true, backend: { kind: "embedded" } },
    seeds: [1, 2],
  };
  const b = {
    name: "b",
    method: "dreamgym",
    rollouts: { groupSize: 8, temperature: 1 },
    experience: { k: 3, reasoning: false, backend: { kind: "embedded" } },
    seeds: [1, 2],
    realTransitions: 40,
  };

  it("lists only the keys that differ, flattened, with each run's value", () => {
    expect(configDiff([a, b])).toEqual([
      { key: "name", values: ["a", "b"] },
      { key: "rollouts.groupSize", values: ["4", "8"] },
      { key: "experience.reasoning", values: ["true", "false"] },
      { key: "realTransitions", values: [null, "40"] },
    ]);
  });

  it("finds nothing between identical configs, and compares arrays whole", () => {
    expect(configDiff([a, structuredClone(a)])).toEqual([]);
    expect(configDiff([a, { ...a, seeds: [2, 1] }])).toEqual([{ key: "seeds", values: ["[1,2]", "[2,1]"] }]);
  });

  it("flattens deeply and keeps empty groups", () => {
    expect([...flattenConfig({ x: { y: { z: null } }, e: {} })]).toEqual([
      ["x.y.z", "null"],
      ["e", "{}"],
    ]);
  });
});
