import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { REAL_DOMAIN_NAMES } from "@/core/envs/names";
import { PolicyCheckpoint } from "@/core/policy/checkpoint";
import { RunConfig } from "@/core/train/config";
import { hasPhase } from "@/core/train/methods";
import { SCALES, tableRows } from "../bench/table/spec";

const run = promisify(execFile);

/**
 * The reproduction table's quick form as a smoke check: every method of the table, for both domains, still runs
 * end to end through the train CLI and yields a result. Success figures at this scale mean nothing and are not
 * asserted.
 */
describe("bench:table at full scale", () => {
  it("gives every synthetic row its domain's synthetic budget, never fewer transitions than the real-env rows get", () => {
    for (const domain of REAL_DOMAIN_NAMES) {
      expect(SCALES.full.syntheticBudget[domain]).toBeGreaterThanOrEqual(SCALES.full.realBudget);
      for (const row of tableRows(domain, SCALES.full, 0)) {
        const config = RunConfig.parse(row.config);
        if (config.method === "real") expect(config.realTransitions).toBe(SCALES.full.realBudget);
        if (hasPhase(config.method, "synthetic"))
          expect(config.syntheticTransitions, `${domain} ${row.key}`).toBe(
            SCALES.full.syntheticBudget[domain],
          );
      }
    }
  });
});

describe("bench:table --quick", () => {
  it("produces a result for every method and domain", { timeout: 600_000 }, async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-table-test-"));
    try {
      const { stdout } = await run(
        process.execPath,
        ["--import", "tsx", path.join("bench", "main.ts"), "table", "--quick", "--out", out],
        { maxBuffer: 16 * 1024 * 1024, env: { ...process.env } },
      );
      const line = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}");
      expect(line).toMatchObject({ bench: "table", mode: "quick", failed: 0 });
      const table = JSON.parse(fs.readFileSync(path.join(out, "table-quick.json"), "utf8"));
      for (const domain of REAL_DOMAIN_NAMES) {
        const keys = tableRows(domain, SCALES.quick, 0).map((r) => r.key);
        const rows = table.summaries.filter((s: { domain: string }) => s.domain === domain);
        expect(rows.map((s: { key: string }) => s.key)).toEqual(keys);
        for (const row of rows) {
          expect(row.failed, `${domain} ${row.key}`).toBe(0);
          expect(typeof row.successMean, `${domain} ${row.key}`).toBe("number");
        }
        const real = rows.find((s: { key: string }) => s.key === "real/grpo");
        expect(real.realTransitions).toBeGreaterThanOrEqual(SCALES.quick.realBudget);
        const dreamgym = rows.find((s: { key: string }) => s.key === "dreamgym/grpo");
        expect(dreamgym.realTransitions).toBe(0);
        expect(dreamgym.syntheticTransitions).toBeGreaterThan(0);
        // The sim-to-real gap for the rows with a synthetic phase, and only for them.
        expect(typeof dreamgym.gapMean).toBe("number");
        expect(real.gapMean).toBeNull();
        // The shop's purchases are also scored by WebShop's own rule; the household has no such rule.
        if (domain === "shop") expect(typeof real.webshopMean).toBe("number");
        else expect(real.webshopMean).toBeNull();
        // The shop's logs as a domain without an environment: trained on them alone, evaluated by proxies, and
        // scored once in the real shop (its success column).
        const imported = rows.find((s: { key: string }) => s.key === "imported-only/grpo");
        if (domain === "shop") {
          expect(imported.realTransitions).toBe(0);
          expect(typeof imported.proxies.syntheticSuccess.mean).toBe("number");
          expect(typeof imported.proxies.actionAgreement.mean).toBe("number");
          expect(imported.proxies.confidence.mean).toBeGreaterThan(0);
        } else expect(imported).toBeUndefined();
        for (const row of rows) if (row.key !== "imported-only/grpo") expect(row.proxies).toBeNull();
        // One seed at the quick scale: no interval can be drawn from it, and none is claimed.
        for (const row of rows) expect(row.successCi95).toBeNull();
        // S2R with its real iterations interleaved and learnt by the model spends its real budget as S2R does.
        const grounded = rows.find((s: { key: string }) => s.key === "s2r-grounded/grpo");
        if (domain === "shop") {
          expect(grounded.realTransitions).toBeGreaterThan(0);
          expect(grounded.realTransitions).toBeLessThanOrEqual(SCALES.quick.s2rBudget);
          expect(typeof grounded.gapMean).toBe("number");
        } else expect(grounded).toBeUndefined();
      }
      const markdown = fs.readFileSync(path.join(out, "table-quick.md"), "utf8");
      expect(markdown).toContain("DreamGym-S2R (GRPO)");
      expect(markdown).toContain(
        "| method | success % | 95% interval | vs real env (pts) | WebShop rule % | paper % | sim-to-real gap (pts) |",
      );
      expect(markdown).toContain("DreamGym + pessimism, MOPO penalty 1 (GRPO)");
      expect(markdown).toContain("| row | proxy: synthetic success % | proxy: action agreement % |");
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});

describe("bench:table's policies, played by the transfer bench", () => {
  it("keeps each run's final policy, and plays it in the real and the synthetic environment", {
    timeout: 600_000,
  }, async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-table-policies-"));
    const policies = path.join(out, "policies");
    try {
      const bench = ["--import", "tsx", path.join("bench", "main.ts")];
      await run(
        process.execPath,
        [
          ...bench,
          "table",
          "--quick",
          "--out",
          out,
          "--domains",
          "household",
          "--rows",
          "dreamgym/grpo",
        ].concat(["--validation", "--policies", policies]),
        { maxBuffer: 16 * 1024 * 1024, env: { ...process.env } },
      );
      const file = path.join(policies, "household-dreamgym-grpo-0.json");
      expect(fs.readdirSync(policies)).toEqual(["household-dreamgym-grpo-0.json"]);
      expect(PolicyCheckpoint.safeParse(JSON.parse(fs.readFileSync(file, "utf8"))).success).toBe(true);
      // A label that is no file name is refused before anything is played.
      await expect(
        run(process.execPath, [...bench, "transfer", "--policy", file, "--label", "../x", "--out", out]),
      ).rejects.toThrow(/--policy needs --label/);
      const { stdout } = await run(
        process.execPath,
        [...bench, "transfer", "--policy", file, "--label", "quick", "--episodes", "4", "--out", out],
        { maxBuffer: 16 * 1024 * 1024, env: { ...process.env } },
      );
      expect(JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}")).toMatchObject({ bench: "transfer" });
      const result = JSON.parse(fs.readFileSync(path.join(out, "transfer-household-quick.json"), "utf8"));
      expect(result.policies).toEqual(["household-dreamgym-grpo-0.json"]);
      expect(result.real.values).toHaveLength(1);
      expect(result.synthetic.values).toHaveLength(1);
      // Every task is counted once under its kind of request, in each environment.
      const kinds = Object.values(result.disagreements.byKind) as {
        tasks: number;
        real: number;
        synthetic: number;
      }[];
      expect(kinds.reduce((n, k) => n + k.tasks, 0)).toBe(4);
      expect(kinds.reduce((n, k) => n + k.real, 0)).toBe(Math.round((result.real.mean * 4) / 100));
      expect(kinds.reduce((n, k) => n + k.synthetic, 0)).toBe(Math.round((result.synthetic.mean * 4) / 100));
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});

describe("bench:table for choosing settings", () => {
  it("runs chosen rows with a changed setting on validation tasks, beside the reproduction table, never over it", {
    timeout: 300_000,
  }, async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-table-validation-"));
    try {
      const args = ["--import", "tsx", path.join("bench", "main.ts"), "table", "--quick", "--out", out];
      const { stdout } = await run(
        process.execPath,
        [
          ...args,
          "--domains",
          "shop",
          "--validation",
          "--rows",
          "real/grpo,dreamgym-s2r/grpo",
          "--set",
          "grpo.epochs=2",
        ],
        { maxBuffer: 16 * 1024 * 1024, env: { ...process.env } },
      );
      expect(JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}")).toMatchObject({ runs: 2, failed: 0 });
      expect(fs.readdirSync(out).sort()).toEqual([
        "table-quick-validation-partial.json",
        "table-quick-validation-partial.md",
      ]);
      const table = JSON.parse(
        fs.readFileSync(path.join(out, "table-quick-validation-partial.json"), "utf8"),
      );
      expect(table).toMatchObject({ heldOut: "validation", overrides: ["grpo.epochs=2"] });
      expect(Object.keys(table.configs).sort()).toEqual(["shop:dreamgym-s2r/grpo", "shop:real/grpo"]);
      for (const config of Object.values(table.configs) as RunConfig[]) {
        expect(config.evaluation.tasks).toBe("validation");
        expect(config.grpo.epochs).toBe(2);
      }
      const markdown = fs.readFileSync(path.join(out, "table-quick-validation-partial.md"), "utf8");
      expect(markdown).toContain(
        "validation tasks (train tasks from 2000 on, never trained on; not the test tasks)",
      );
      expect(markdown).toContain("with `grpo.epochs=2` in every row");

      await expect(run(process.execPath, [...args, "--rows", "no-such-row"])).rejects.toThrow(
        /--rows: no row no-such-row \(rows: untrained, bc, real\/grpo/,
      );
      await expect(run(process.execPath, [...args, "--part", "../table"])).rejects.toThrow(
        /--part: a name of lower-case letters, digits and dashes, not "\.\.\/table"/,
      );
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
