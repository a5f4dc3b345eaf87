import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseRunConfig } from "./config";

const root = path.resolve(import.meta.dirname, "../../../configs");
const jsonIn = (dir: string) => fs.readdirSync(path.join(root, dir)).filter((f) => f.endsWith(".json"));

describe("shipped run configs", () => {
  it("are the reproduction table's rows (configs/table) and their quick smoke forms (configs/quick), nothing else", () => {
    expect(fs.readdirSync(root).sort()).toEqual(["quick", "table"]);
    const table = new Set(jsonIn("table"));
    // Every quick form is a smaller run of one of the table's rows.
    for (const file of jsonIn("quick")) expect(table.has(file), file).toBe(true);
  });

  for (const file of jsonIn("quick")) {
    it(`quick/${file} is a valid run config whose name says what it is`, () => {
      const config = parseRunConfig(
        JSON.parse(fs.readFileSync(path.join(root, "quick", file), "utf8")),
        file,
      );
      expect(file.startsWith(`${config.domain}-${config.method}`)).toBe(true);
      expect(config.name).toMatch(/\(quick\)$/);
    });
  }
});
