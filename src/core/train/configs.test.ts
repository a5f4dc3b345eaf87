import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REAL_DOMAIN_NAMES } from "@/core/envs/names";
import { parseRunConfig } from "./config";

const dir = path.resolve(import.meta.dirname, "../../../configs");

describe("shipped run configs", () => {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".json"));
  it("cover every method and domain, each with a quick form", () => {
    for (const domain of REAL_DOMAIN_NAMES) {
      for (const stem of [
        "dreamgym-grpo",
        "dreamgym-ppo",
        "dreamgym-s2r-grpo",
        "real-grpo",
        "real-ppo",
        "bc",
      ]) {
        expect(files).toContain(`${domain}-${stem}.json`);
        expect(files).toContain(`${domain}-${stem}-quick.json`);
      }
    }
  });

  for (const file of files) {
    it(`${file} is a valid run config whose name says what it is`, () => {
      const config = parseRunConfig(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")), file);
      expect(file.startsWith(`${config.domain}-${config.method}`)).toBe(true);
    });
  }
});
