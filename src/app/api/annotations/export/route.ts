import { exportFileName, exportReviewedJsonl } from "@/server/annotations/exportReviewed";
import { permitted } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { withReplayBuffer } from "@/server/replay/sharedReplayBuffer";
import { AnnotationFilter } from "@/shared/annotationFilter";

export const dynamic = "force-dynamic";

/** The reviewed SFT dataset as a JSONL download, under the annotation queue's filters (?status=&domain=&teacher=). */
export async function GET(request: Request): Promise<Response> {
  const user = await permitted(request, { annotation: ["export"] });
  if (user instanceof Response) return user;
  const params = new URL(request.url).searchParams;
  const parsed = AnnotationFilter.safeParse({
    status: params.get("status") ?? undefined,
    domain: params.get("domain") || undefined,
    teacher: params.get("teacher") || undefined,
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    return new Response(`Bad export filter: ${problems}\n`, { status: 400 });
  }
  const db = await getDb();
  try {
    // Prompts carry the demonstrations the experience model would retrieve, as the CLI's export does.
    const { jsonl, records } = await withReplayBuffer(db, (store) =>
      exportReviewedJsonl(db, store, parsed.data),
    );
    return new Response(jsonl, {
      headers: {
        "Content-Type": "application/x-ndjson; charset=utf-8",
        "Content-Disposition": `attachment; filename="${exportFileName(parsed.data)}"`,
        "Cache-Control": "no-store",
        "X-Record-Count": String(records),
      },
    });
  } catch (error) {
    console.error("annotation export:", error);
    return new Response(`The export failed: ${(error as Error).message}\n`, { status: 500 });
  }
}
