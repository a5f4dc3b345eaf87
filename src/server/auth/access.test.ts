import { describe, expect, it } from "vitest";
import { can, describePermission, type Permission } from "./access";

describe("what each role may change", () => {
  it("gives researchers runs, data, flags and the environment server, and nothing of the annotation queue or users", () => {
    expect(can("researcher", { run: ["launch", "cancel", "resume", "delete"] })).toBe(true);
    expect(can("researcher", { data: ["import", "delete"] })).toBe(true);
    expect(can("researcher", { step: ["flag", "export"] })).toBe(true);
    expect(can("researcher", { environment: ["train"] })).toBe(true);
    expect(can("researcher", { annotation: ["review"] })).toBe(false);
    expect(can("researcher", { user: ["create"] })).toBe(false);
  });

  it("gives annotators the annotation queue and its export only", () => {
    expect(can("annotator", { annotation: ["review", "export"] })).toBe(true);
    expect(can("annotator", { run: ["launch"] })).toBe(false);
    expect(can("annotator", { step: ["flag"] })).toBe(false);
  });

  it("lets researchers and admins assign annotation work, and only admins edit the guidelines", () => {
    expect(can("researcher", { annotation: ["assign"] })).toBe(true);
    expect(can("admin", { annotation: ["assign", "guide", "review"] })).toBe(true);
    for (const role of ["annotator", "researcher", "viewer"])
      expect([role, can(role, { annotation: ["guide"] })]).toEqual([role, false]);
    expect(can("annotator", { annotation: ["assign"] })).toBe(false);
  });

  it("gives viewers nothing to change, and admins everything", () => {
    const changes: Permission[] = [{ run: ["launch"] }, { annotation: ["review"] }, { user: ["list"] }];
    for (const permission of changes) expect(can("viewer", permission)).toBe(false);
    expect(
      can("admin", { user: ["create", "set-role", "set-password"], run: ["launch"], annotation: ["export"] }),
    ).toBe(true);
  });

  it("reads several comma-separated roles as any of them, and an unknown or missing role as none", () => {
    expect(can("viewer,annotator", { annotation: ["review"] })).toBe(true);
    expect(can("superuser", { run: ["launch"] })).toBe(false);
    expect(can(null, { run: ["launch"] })).toBe(false);
    expect(describePermission({ run: ["launch"], step: ["flag", "export"] })).toBe(
      "launch run, flag/export step",
    );
  });
});
