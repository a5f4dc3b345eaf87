import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseRunConfig } from "@/core/train/config";
import { applyOverride } from "@/core/train/overrides";
import { TABLE_CONFIG_DIR, tableConfigFile, tableConfigs, tableConfigText } from "../bench/table/configs";
import { SCALES, tableRows } from "../bench/table/spec";

const root = path.resolve(import.meta.dirname, "..");

describe("configs/table", () => {
  it("holds every row of the reproduction table, as the table bench runs it, and nothing else", () => {
    const dir = path.join(root, TABLE_CONFIG_DIR);
    const committed = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .sort();
    const configs = tableConfigs();
    expect(committed).toEqual([...configs.keys()].sort());
    for (const [file, config] of configs)
      expect(
        fs.readFileSync(path.join(dir, file), "utf8"),
        `${file}: run \`npm run bench -- table-configs\``,
      ).toBe(tableConfigText(config));
  });

  it("gives each row's run at any seed with --set seed=N", () => {
    for (const domain of ["shop", "household"] as const)
      for (const seed of [1, 4])
        for (const row of tableRows(domain, SCALES.full, seed)) {
          const file = path.join(root, TABLE_CONFIG_DIR, tableConfigFile(domain, row.key));
          const config = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
          applyOverride(config, `seed=${seed}`);
          expect(parseRunConfig(config), `${domain} ${row.key} seed ${seed}`).toEqual(
            parseRunConfig(row.config),
          );
        }
  });
});
