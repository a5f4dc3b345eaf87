import type { ReplayBuffer } from "@/core/replay/buffer";
import { type AnnotationFilter, exportStatuses } from "@/shared/annotationFilter";
import type { Db } from "../db";
import { SFT_EXPORT_SETTINGS, sftRecords } from "../experience/exportSft";

/**
 * The reviewed SFT set under the queue's filters, as JSONL: accepted traces as the teacher wrote them, edited ones
 * as corrected (see exportStatuses). The same records, prompts included, as `export-sft --reviewed-only`.
 */
export async function exportReviewedJsonl(
  db: Db,
  buffer: ReplayBuffer | undefined,
  filter: AnnotationFilter,
): Promise<{ jsonl: string; records: number }> {
  const statuses = exportStatuses(filter.status);
  if (statuses.length === 0) return { jsonl: "", records: 0 };
  const lines: string[] = [];
  for await (const record of sftRecords(db, buffer, {
    statuses,
    settings: SFT_EXPORT_SETTINGS,
    ...(filter.domain ? { domain: filter.domain } : {}),
    ...(filter.teacher ? { teacher: filter.teacher } : {}),
  }))
    lines.push(JSON.stringify(record));
  return { jsonl: lines.map((l) => `${l}\n`).join(""), records: lines.length };
}

/** A file name that says what is in the file. */
export function exportFileName(filter: AnnotationFilter, now = new Date()): string {
  const parts = ["dreamgym-sft", filter.status === "all" ? "reviewed" : filter.status];
  if (filter.domain) parts.push(filter.domain);
  if (filter.teacher) parts.push(filter.teacher);
  parts.push(now.toISOString().slice(0, 10));
  return `${parts.join("-").replace(/[^A-Za-z0-9._-]+/g, "_")}.jsonl`;
}
