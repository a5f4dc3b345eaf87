import { describe, expect, it } from "vitest";
import { RunConfig } from "@/core/train/config";
import { cleanName, ImportName, PersonName } from "./names";

describe("names people give", () => {
  it("turns what breaks a line into a space and drops every other control character", () => {
    expect(cleanName("evil\u0000name\n.jsonl")).toBe("evilname .jsonl");
    expect(cleanName("a\r\nb\tc\u2028d\u0085e")).toBe("a b c d e");
    expect(cleanName("\u001b[31mred\u001b[0m \u007f\u009bend")).toBe("[31mred[0m end");
    expect(cleanName("  padded \n")).toBe("padded");
    // What is not a control character stays: accents, other scripts, emoji joined by a zero-width joiner.
    expect(cleanName("Zoë 李 👩‍🔬 run-2 (v1).jsonl")).toBe("Zoë 李 👩‍🔬 run-2 (v1).jsonl");
  });

  it("cleans an import's name before measuring it, so a name of control characters alone is refused", () => {
    expect(ImportName.parse("shop\u0000\nlogs.jsonl")).toBe("shop logs.jsonl");
    expect(ImportName.safeParse("\u0000\n\t").success).toBe(false);
    expect(ImportName.safeParse(`${"x".repeat(300)}\u0000\u0000`).success).toBe(true);
    expect(ImportName.safeParse("x".repeat(301)).success).toBe(false);
  });

  it("cleans a person's name and a run's", () => {
    expect(PersonName.parse("Rosa\u0000\nResearcher")).toBe("Rosa Researcher");
    const run = RunConfig.parse({ method: "dreamgym", domain: "shop", name: "ablation\n\u0000k=0\u001b" });
    expect(run.name).toBe("ablation k=0");
    // A run needs no name.
    expect(RunConfig.parse({ method: "dreamgym", domain: "shop", name: "\n" }).name).toBe("");
  });
});
