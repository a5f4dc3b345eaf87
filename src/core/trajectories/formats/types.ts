import type { Split } from "../../types";
import type { ImportError } from "../importFormat";

/** What a converter may be told: the domain to file the trajectories under, and the split of those that name none. */
export interface ConvertOptions {
  domain?: string;
  split?: Split;
}

/** One trajectory in the project's import format (validated afterwards, like any JSONL line), and where it came from. */
export interface ConvertedRecord {
  /** 1-based line of the source file where its record starts. */
  line: number;
  /** How an error names it, e.g. `item 3 (item_id "webshop_2")`. */
  label: string;
  value: Record<string, unknown>;
}

export interface Conversion {
  records: ConvertedRecord[];
  errors: ImportError[];
}
