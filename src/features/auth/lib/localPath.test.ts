import { describe, expect, it } from "vitest";
import { localPath } from "./localPath";

describe("where sign-in goes next", () => {
  it("goes back to the page that sent the browser to sign in", () => {
    expect(localPath("/runs/new")).toBe("/runs/new");
    expect(localPath("/trajectories?run=abc&flagged=1")).toBe("/trajectories?run=abc&flagged=1");
  });

  it("never leaves the site, nor loops back to sign-in", () => {
    for (const next of [
      "//evil.example/x",
      "/\\evil.example",
      "https://evil.example",
      "evil",
      "/sign-in?next=/x",
      null,
    ])
      expect(localPath(next)).toBe("/");
  });
});
