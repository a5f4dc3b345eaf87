import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { markdown, type RunOutcome, summarise } from "../bench/table/report";
import { SCALES } from "../bench/table/spec";

const run = promisify(execFile);
const META = { commit: "abc", scale: SCALES.full, mode: "full", minutes: 1, date: "today" };
const REAL = { key: "real/grpo", label: "GRPO in the real env" };
const DREAMGYM = { key: "dreamgym/grpo", label: "DreamGym (GRPO)" };

const runs = (key: string, successes: number[]): RunOutcome[] =>
  successes.map((s, seed) => ({ domain: "household", seed, key, finalSuccess: s / 100 }));

describe("a part of the table without a real-env row of its own", () => {
  const realPart = summarise("household", [REAL], runs(REAL.key, [85, 83, 87, 86, 83]));
  const dreamgym = runs(DREAMGYM.key, [75, 80, 66, 83, 71]);

  it("is compared with another part's real-env row, by Welch's interval, named in the report", () => {
    expect(summarise("household", [DREAMGYM], dreamgym)[0]!.vsReal).toBeNull();
    const [row] = summarise("household", [DREAMGYM], dreamgym, {
      source: "table-grpo.md",
      summaries: realPart,
    });
    expect(row!.vsReal).toMatchObject({ diff: expect.closeTo(-9.8, 6), noise: false });
    expect(row!.vsReal!.interval!.high).toBeLessThan(0);
    const md = markdown([row!], { ...META, reference: "table-grpo.md" });
    expect(md).toContain("the one in table-grpo.md");
    expect(md).toMatch(/\| DreamGym \(GRPO\) \| 75\.0 ± 6\.8 \| [^|]+ \| -9\.8 \[/);
  });

  it("never borrows another domain's real-env row, nor one where it has its own", () => {
    const shopReal = summarise(
      "shop",
      [REAL],
      runs(REAL.key, [10, 10, 10]).map((o) => ({ ...o, domain: "shop" })),
    );
    const [row] = summarise("household", [DREAMGYM], dreamgym, { source: "x.md", summaries: shopReal });
    expect(row!.vsReal).toBeNull();
    const own = summarise(
      "household",
      [REAL, DREAMGYM],
      [...runs(REAL.key, [75, 80, 66, 83, 71]), ...dreamgym],
      {
        source: "x.md",
        summaries: realPart,
      },
    );
    expect(own[1]!.vsReal).toMatchObject({ diff: 0, noise: true, reference: REAL.label });
  });

  it("is re-reported from its stored runs by `bench table-report --reference`, its figures unchanged", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-table-report-"));
    try {
      const store = (name: string, rows: (typeof REAL)[], outcomes: RunOutcome[]) => {
        const file = path.join(dir, name);
        const summaries = summarise("household", rows, outcomes);
        fs.writeFileSync(file, JSON.stringify({ ...META, summaries, runs: outcomes }));
        return file;
      };
      const real = store("table-grpo.json", [REAL], runs(REAL.key, [85, 83, 87, 86, 83]));
      const part = store("table-grpo-household.json", [DREAMGYM], dreamgym);
      const tableReport = (reference: string) =>
        run(process.execPath, [
          "--import",
          "tsx",
          path.join("bench", "main.ts"),
          "table-report",
          part,
          "--reference",
          reference,
        ]);
      await tableReport(real);
      const stored = JSON.parse(fs.readFileSync(part, "utf8"));
      expect(stored.reference).toBe("table-grpo.md");
      expect(stored.summaries[0]).toMatchObject({ successMean: 75, vsReal: { noise: false } });
      expect(stored.runs).toEqual(dreamgym);
      expect(fs.readFileSync(part.replace(".json", ".md"), "utf8")).toContain("| -9.8 [");
      const bad = await tableReport(part).catch((e: { stderr: string }) => e);
      expect((bad as { stderr: string }).stderr).toMatch(/has no real-env row/);
      fs.writeFileSync(path.join(dir, "empty.json"), "");
      const empty = await tableReport(path.join(dir, "empty.json")).catch((e: { stderr: string }) => e);
      expect((empty as { stderr: string }).stderr).toMatch(/empty\.json: not a table's results file/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
