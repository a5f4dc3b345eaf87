import { describe, expect, it } from "vitest";
import { episodeHref, filterQuery, readExplorerParams } from "./explorerParams";

describe("explorer URL parameters", () => {
  it("reads the names other pages link with, and ignores what it does not understand", () => {
    const params = new URLSearchParams(
      "run=r1&iteration=2&task=shop:train:3&domain=shop&source=synthetic&success=false&flagged=true&q=mug",
    );
    expect(readExplorerParams(params)).toEqual({
      runId: "r1",
      iteration: 2,
      taskId: "shop:train:3",
      domain: "shop",
      source: "synthetic",
      success: false,
      flagged: true,
      search: "mug",
    });
    expect(readExplorerParams(new URLSearchParams("source=dream&iteration=-1&success=maybe&run="))).toEqual(
      {},
    );
    expect(readExplorerParams(new URLSearchParams("iteration=0")).iteration).toBe(0);
  });

  it("carries the filters, not the page or step, into an episode link", () => {
    const query = filterQuery(new URLSearchParams("run=r1&page=3&step=4&source=synthetic"));
    expect(query).toBe("?run=r1&source=synthetic");
    // The URL counts steps from 1: index 5 is step 6.
    expect(episodeHref("t1", query, 5)).toBe("/trajectories/t1?run=r1&source=synthetic&step=6");
    expect(episodeHref("t1", "")).toBe("/trajectories/t1");
  });
});
