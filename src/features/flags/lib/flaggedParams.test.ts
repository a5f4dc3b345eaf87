import { describe, expect, it } from "vitest";
import { flaggedExportHref, readFlaggedParams } from "./flaggedParams";

describe("flagged list parameters", () => {
  it("reads the filters and page from the URL, leaving out what is blank or unknown", () => {
    const read = readFlaggedParams(new URLSearchParams("run=r1&domain=&author=a@x&category=nonsense&page=2"));
    expect(read).toEqual({ filter: { runId: "r1", author: "a@x" }, page: 2 });
    expect(readFlaggedParams(new URLSearchParams("page=-3")).page).toBe(0);
    expect(readFlaggedParams(new URLSearchParams("page=x")).page).toBe(0);
  });

  it("exports what the filters select", () => {
    expect(flaggedExportHref({})).toBe("/api/flagged/export");
    expect(flaggedExportHref({ runId: "r1" })).toMatch(/^\/api\/flagged\/export\?.*r1/);
  });
});
