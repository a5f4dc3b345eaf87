import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LANCE_COLUMNS } from "@/server/replay/lanceSchema";
import { CORE_PACKAGES, SHARED_PACKAGES } from "./helpers/layers";

/*
 * ARCHITECTURE.md says "if this page and the code disagree, a test fails": these are its claims that prose alone
 * could let drift, each read from the page and compared with the code that makes it true.
 */
const page = fs.readFileSync(path.resolve(import.meta.dirname, "..", "ARCHITECTURE.md"), "utf8");

/** "a, b and c" (or "a, b, c") as a list. */
const listOf = (text: string) =>
  text
    .replace(/\s+/g, " ")
    .split(/,\s*|\s+and\s+/)
    .map((s) => s.replace(/[`.]/g, "").trim())
    .filter(Boolean);

describe("ARCHITECTURE.md's claims", () => {
  it("names exactly the packages src/core and src/shared may use, as the architecture test allows them", () => {
    const core = /`src\/core` imports only `src\/core` and the packages ([^.]+)\./.exec(page);
    expect(core, "the sentence about src/core's packages").not.toBeNull();
    expect(listOf(core![1]!).sort()).toEqual([...CORE_PACKAGES].sort());
    const shared = /`src\/shared` imports only `src\/shared`, `src\/core` and ([^.]+)\./.exec(page);
    expect(shared, "the sentence about src/shared's packages").not.toBeNull();
    expect(listOf(shared![1]!).sort()).toEqual([...SHARED_PACKAGES].sort());
  });

  it("lists exactly the columns LanceDB holds beside each step's vector", () => {
    const columns = /\(`lanceSchema\.ts`\): ([^.]+)\./.exec(page);
    expect(columns, "the sentence listing LanceDB's columns").not.toBeNull();
    expect(listOf(columns![1]!)).toEqual(LANCE_COLUMNS.map((c) => c.name));
  });

  it("says when the replay buffer of a run grows with synthetic transitions, and its default, as the code does", async () => {
    const claim =
      /only when `experience\.enrichBuffer` is on, the paper's enrichment; (on|off)\s+by default/.exec(page);
    expect(claim, "the sentence on buffer enrichment").not.toBeNull();
    const { parseRunConfig } = await import("@/core/train/config");
    const { enrichBuffer } = parseRunConfig({ method: "dreamgym", domain: "shop" }).experience;
    expect(claim![1]).toBe(enrichBuffer ? "on" : "off");
  });
});
