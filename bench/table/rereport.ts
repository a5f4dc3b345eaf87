/**
 * `npm run bench -- table-report FILE.json [--reference OTHER.json]`: a part's report rebuilt from the runs its
 * results file stores, repeating none: the summaries in FILE.json and FILE.md beside it. With `--reference`, rows
 * without a real-env row of their own are compared with OTHER's (a part run later than the real-env rows it
 * answers to, e.g. the household's DreamGym rows against table-grpo.json's real-env GRPO).
 */
import fs from "node:fs";
import path from "node:path";
import { isRealDomainName } from "@/core/envs/names";
import { markdown, type ReferenceRows, type RowSummary, type RunOutcome, summarise } from "./report";
import type { Domain, Scale } from "./spec";

interface StoredTable {
  commit: string;
  mode: string;
  scale: Scale;
  minutes: number;
  date: string;
  heldOut?: "test" | "validation";
  overrides?: string[];
  reference?: string;
  summaries: RowSummary[];
  runs: RunOutcome[];
}

function readTable(file: string): StoredTable {
  let stored: Partial<StoredTable>;
  try {
    stored = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<StoredTable>;
  } catch (error) {
    throw new Error(`${file}: not a table's results file (${(error as Error).message})`);
  }
  if (!Array.isArray(stored.summaries) || !Array.isArray(stored.runs) || !stored.scale)
    throw new Error(`${file}: not a table's results file (no summaries, runs or scale)`);
  return stored as StoredTable;
}

/** The real-env rows of another part, named by its report's file name. */
export function loadReference(file: string): ReferenceRows {
  const { summaries } = readTable(file);
  const real = summaries.filter((s) => s.key.startsWith("real/"));
  if (real.length === 0) throw new Error(`--reference ${file}: it has no real-env row`);
  return { source: path.basename(file).replace(/\.json$/, ".md"), summaries: real };
}

export async function tableReportBench(args: string[]): Promise<void> {
  const file = args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--reference");
  if (!file) throw new Error("usage: npm run bench -- table-report FILE.json [--reference OTHER.json]");
  const at = args.indexOf("--reference");
  const reference = at >= 0 ? loadReference(args[at + 1] ?? "") : undefined;
  const stored = readTable(file);
  const domains = [...new Set(stored.summaries.map((s) => s.domain))].filter((d): d is Domain =>
    isRealDomainName(d),
  );
  const summaries = domains.flatMap((domain) =>
    summarise(
      domain,
      stored.summaries.filter((s) => s.domain === domain),
      stored.runs,
      reference,
    ),
  );
  const meta = { ...stored, reference: reference?.source ?? stored.reference };
  fs.writeFileSync(file, `${JSON.stringify({ ...meta, summaries }, null, 2)}\n`);
  fs.writeFileSync(file.replace(/\.json$/, ".md"), markdown(summaries, meta));
  process.stdout.write(
    `${JSON.stringify({ bench: "table-report", file, rows: summaries.length, reference: meta.reference ?? null })}\n`,
  );
}
