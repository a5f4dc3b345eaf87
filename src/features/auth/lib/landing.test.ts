import { describe, expect, it } from "vitest";
import { landingPage } from "./landing";
import { localPath } from "./localPath";

describe("where a person lands", () => {
  it("sends annotators to their queue and everyone else to the runs", () => {
    expect(landingPage("annotator")).toBe("/annotations");
    expect(landingPage("researcher")).toBe("/runs");
    expect(landingPage("admin")).toBe("/runs");
    expect(landingPage("viewer")).toBe("/runs");
    expect(landingPage(null)).toBe("/runs");
    expect(landingPage("annotator,researcher")).toBe("/runs");
  });

  it("sign-in without a page to return to goes home, which picks the landing page by role", () => {
    expect(localPath(null)).toBe("/");
  });
});
