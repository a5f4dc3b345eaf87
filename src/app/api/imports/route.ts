import { readBodyUpTo } from "@/server/api/limitedBody";
import { permitted } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import {
  queueUpload,
  tooLargeMessage,
  UPLOAD_LIMIT_BYTES,
  UploadFields,
  UploadRejected,
} from "@/server/trajectories/queueUpload";

export const dynamic = "force-dynamic";

const text = (body: string, status: number) =>
  new Response(`${body}\n`, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/**
 * A trajectory file to import: the file itself as the body (streamed, never held beyond the upload limit), its name
 * and format in the query (?name=&format=). Answers 202 with the queued job, or a sentence: 400 for a bad file
 * (with its line numbers), 413 for one over the limit.
 */
export async function POST(request: Request): Promise<Response> {
  const user = await permitted(request, { data: ["import"] });
  if (user instanceof Response) return user;
  const params = new URL(request.url).searchParams;
  const fields = UploadFields.safeParse({
    name: params.get("name") ?? "",
    format: params.get("format") || undefined,
  });
  if (!fields.success) {
    await request.body?.cancel().catch(() => {});
    const problems = fields.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    return text(`Bad upload: ${problems}`, 400);
  }
  const body = await readBodyUpTo(request, UPLOAD_LIMIT_BYTES);
  if (!body) return text(tooLargeMessage(fields.data.name), 413);
  try {
    const content = new TextDecoder().decode(body);
    const queued = await queueUpload(await getDb(), { ...fields.data, content });
    return Response.json(queued, { status: 202 });
  } catch (error) {
    if (error instanceof UploadRejected) return text(error.message, 400);
    console.error("import upload:", error);
    return text(`The upload failed: ${(error as Error).message}`, 500);
  }
}
