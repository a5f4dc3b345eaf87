import { describe, expect, it } from "vitest";
import { actionParts, actionTemplate, isAdmissible } from "./admissible";

const RESULTS = ["click[back to search]", "click[b0001]", "click[b0002]"];

describe("isAdmissible", () => {
  it("matches listed actions leniently on case and spacing", () => {
    expect(isAdmissible("click[b0001]", RESULTS)).toBe(true);
    expect(isAdmissible("  Click[B0001] ", RESULTS)).toBe(true);
    expect(isAdmissible("click[b0003]", RESULTS)).toBe(false);
    expect(isAdmissible("search[mug]", RESULTS)).toBe(false);
  });

  it("treats verb[...] as a template for any non-empty argument", () => {
    expect(isAdmissible("search[red mug]", ["search[...]"])).toBe(true);
    expect(isAdmissible("search[   ]", ["search[...]"])).toBe(false);
    expect(isAdmissible("click[red mug]", ["search[...]"])).toBe(false);
  });

  it("leaves the decision to the model when the domain lists no actions", () => {
    expect(isAdmissible("go north", undefined)).toBeUndefined();
    expect(isAdmissible("go north", [])).toBeUndefined();
  });
});

describe("admissible actions", () => {
  it("matches listed actions, case- and space-insensitively, and search templates", () => {
    expect(isAdmissible("Click[Buy Now]", ["click[buy now]"])).toBe(true);
    expect(isAdmissible("search[red  shoes]", ["search[...]"])).toBe(true);
    expect(isAdmissible("search[]", ["search[...]"])).toBe(false);
    expect(isAdmissible("click[b99]", ["click[b01]", "search[...]"])).toBe(false);
    expect(isAdmissible("anything", undefined)).toBeUndefined();
  });

  it("abstracts arguments but keeps named buttons", () => {
    expect(actionTemplate("open cabinet 2")).toBe(actionTemplate("open drawer 1"));
    expect(actionTemplate("take apple 1 from countertop 1")).toBe("take * from *");
    expect(actionTemplate("click[b0072mvu]")).toBe("click[*]");
    expect(actionTemplate("click[buy now]")).toBe("click[buy now]");
    expect(actionTemplate("click[buy now]")).not.toBe(actionTemplate("click[back to search]"));
    // Free text where the state admits any argument for the verb, read from the state, not from the verb's name.
    expect(actionTemplate("search[red shoes]", { text: "", actions: ["search[...]"] })).toBe("search[*]");
    expect(actionTemplate("find[red shoes]", { text: "", actions: ["find[...]"] })).toBe("find[*]");
    expect(actionTemplate("search[red shoes]", { text: "", actions: ["click[red shoes]"] })).toBe(
      "search[red shoes]",
    );
  });

  it("reads numbered names as arguments, and the words between them as the verb's pattern", () => {
    expect(actionTemplate("put mug 2 in/on shelf 1")).toBe("put * in/on *");
    expect(actionTemplate("assign ticket 12 to agent 3")).toBe("assign * to *");
    expect(actionTemplate("look")).toBe("look");
    expect(actionTemplate('list_events(day="monday")')).toBe(actionTemplate('list_events(day="friday")'));
    expect(actionTemplate('move(id=3, to="done, later")')).toBe("move(id=*, to=*)");
    expect(actionParts('move(id=3, to="done, later")').args).toEqual(["3", '"done, later"']);
  });
});
