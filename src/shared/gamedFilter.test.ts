import { describe, expect, it } from "vitest";
import { GamedFilter, readGamedParams } from "./gamedFilter";

describe("the filters of where the model is gamed", () => {
  it("reads run, domain and iteration range from the URL, leaving out what is not a filter", () => {
    expect(readGamedParams(new URLSearchParams("run=r1&domain=shop&from=2&to=5"))).toEqual({
      runId: "r1",
      domain: "shop",
      iterationFrom: 2,
      iterationTo: 5,
    });
    expect(readGamedParams(new URLSearchParams("run=&from=-1&to=2.5&domain=%20"))).toEqual({});
  });

  it("refuses a range that starts after it ends, naming both ends", () => {
    expect(GamedFilter.safeParse({ iterationFrom: 1, iterationTo: 1 }).success).toBe(true);
    const parsed = GamedFilter.safeParse({ iterationFrom: 4, iterationTo: 2 });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ["iterationTo"],
      message: "The iteration range starts after it ends (4 > 2)",
    });
  });
});
