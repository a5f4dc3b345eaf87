import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import {
  DEFAULT_IMPORT_FORMAT,
  IMPORT_FORMATS,
  type ImportFormat,
  parseImportAs,
  toJsonl,
} from "@/core/trajectories/formats";
import { contentKey, rejectionMessage } from "@/core/trajectories/importFormat";
import { config } from "@/env";
import { ImportName } from "@/shared/names";
import type { Db } from "../db";
import { enqueue } from "../queue/queue";

/** Uploads larger than this belong on the CLI (`npm run cli -- import FILE`), which reads the file from disk. */
export const UPLOAD_LIMIT_BYTES = 50 * 1024 * 1024;

/** What the upload is called and which format it is in: the form's fields. */
export const UploadFields = z.object({
  name: ImportName,
  format: z.enum(IMPORT_FORMATS).default(DEFAULT_IMPORT_FORMAT),
});

/** A file refused for what is in it: the message names it and its bad lines. */
export class UploadRejected extends Error {}

export interface QueuedUpload {
  jobId: string;
  trajectories: number;
  format: ImportFormat;
}

/** The sentence for an upload over the limit, refused before or while it arrives. */
export function tooLargeMessage(name: string): string {
  return `${name} was refused: the file is larger than the ${UPLOAD_LIMIT_BYTES / (1024 * 1024)} MB limit. Import bigger files with the command line (npm run cli -- import FILE).`;
}

/**
 * Checks an uploaded file now (so a bad file is refused with its line numbers before anything is queued), saves it
 * under the data folder and enqueues the import; the worker does the writing. A file in another format is
 * converted here and saved as the project's JSONL, so the worker imports it by the same path.
 */
export async function queueUpload(
  db: Db,
  upload: { name: string; content: string; format: ImportFormat },
): Promise<QueuedUpload> {
  const parsed = parseImportAs(upload.content, upload.format);
  if (parsed.errors.length > 0) throw new UploadRejected(rejectionMessage(upload.name, parsed.errors));
  const dir = path.resolve(config().dataDir, "imports");
  await fs.mkdir(dir, { recursive: true });
  const content = parsed.format === "dreamgym" ? upload.content : toJsonl(parsed);
  const file = path.join(dir, `${contentKey(content)}.jsonl`);
  // Written beside and renamed into place: a worker never reads half a file, and a failed write leaves none.
  const partial = `${file}.${randomBytes(6).toString("hex")}.partial`;
  try {
    await fs.writeFile(partial, content, "utf8");
    await fs.rename(partial, file);
  } catch (error) {
    await fs.rm(partial, { force: true });
    throw error;
  }
  const job = await enqueue(db, "import", { path: file, name: upload.name });
  return { jobId: job.id, trajectories: parsed.trajectories.length, format: parsed.format };
}
