/**
 * `npm run bench -- table-configs`: writes every row of the reproduction table as a run config file,
 * configs/table/<domain>-<row>.json (seed 0), so that one row and seed can be run alone:
 *
 *   npm run bench -- table --data-only data/table
 *   DREAMGYM_DATA_DIR=data/table npm run cli -- train --config configs/table/shop-dreamgym-grpo.json --set seed=3
 *
 * gives the table's run of that row and seed, to the bit (the table bench runs the same `train` command on the same
 * offline data). tests/tableConfigs.test.ts checks that the files are the table's rows.
 */
import fs from "node:fs";
import path from "node:path";
import { REAL_DOMAIN_NAMES } from "@/core/envs/names";
import { SCALES, tableRows } from "./spec";

export const TABLE_CONFIG_DIR = path.join("configs", "table");

/** The file name of a row's config: its domain and key, e.g. shop-dreamgym-grpo.json. */
export function tableConfigFile(domain: string, key: string): string {
  return `${domain}-${key.replace("/", "-")}.json`;
}

/** Every row of the full table at seed 0, by file name. */
export function tableConfigs(): Map<string, Record<string, unknown>> {
  return new Map(
    REAL_DOMAIN_NAMES.flatMap((domain) =>
      tableRows(domain, SCALES.full, 0).map((row) => [tableConfigFile(domain, row.key), row.config] as const),
    ),
  );
}

export function tableConfigText(config: Record<string, unknown>): string {
  return `${JSON.stringify(config, null, 2)}\n`;
}

export async function tableConfigsBench(args: string[]): Promise<void> {
  const dir = path.resolve(args[0] ?? TABLE_CONFIG_DIR);
  fs.mkdirSync(dir, { recursive: true });
  const configs = tableConfigs();
  for (const file of fs.readdirSync(dir))
    if (file.endsWith(".json") && !configs.has(file)) fs.rmSync(path.join(dir, file));
  for (const [file, config] of configs) fs.writeFileSync(path.join(dir, file), tableConfigText(config));
  process.stdout.write(
    `${JSON.stringify({ bench: "table-configs", written: configs.size, dir: path.relative(process.cwd(), dir) })}\n`,
  );
}
