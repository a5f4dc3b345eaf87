import { describe, expect, it } from "vitest";
import { AnnotationFilter, exportStatuses, STATUS_FILTERS } from "./annotationFilter";

describe("annotation filter", () => {
  it("exports only reviewed traces, whatever the status filter", () => {
    expect(exportStatuses("all")).toEqual(["accepted", "edited"]);
    expect(exportStatuses("accepted")).toEqual(["accepted"]);
    expect(exportStatuses("edited")).toEqual(["edited"]);
    expect(exportStatuses("pending")).toEqual([]);
    expect(exportStatuses("rejected")).toEqual([]);
  });

  it("opens on pending and refuses a status that is not a tab", () => {
    expect(AnnotationFilter.parse({}).status).toBe("pending");
    expect(STATUS_FILTERS).toContain("all");
    expect(AnnotationFilter.safeParse({ status: "done" }).success).toBe(false);
  });
});
