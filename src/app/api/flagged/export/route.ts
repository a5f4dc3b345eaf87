import { permitted } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { exportFlaggedJsonl, flaggedExportFileName } from "@/server/steps/exportFlagged";
import { FlaggedFilter, readFlaggedParams } from "@/shared/flaggedFilter";

export const dynamic = "force-dynamic";

/**
 * The flagged steps as JSONL regression cases for the experience model, under the flagged list's filters
 * (?run=&domain=&author=&category=), as a download.
 */
export async function GET(request: Request): Promise<Response> {
  const user = await permitted(request, { step: ["export"] });
  if (user instanceof Response) return user;
  const parsed = FlaggedFilter.safeParse(readFlaggedParams(new URL(request.url).searchParams));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    return new Response(`Bad export filter: ${problems}\n`, { status: 400 });
  }
  try {
    const { jsonl, records } = await exportFlaggedJsonl(await getDb(), parsed.data);
    return new Response(jsonl, {
      headers: {
        "Content-Type": "application/x-ndjson; charset=utf-8",
        "Content-Disposition": `attachment; filename="${flaggedExportFileName(parsed.data)}"`,
        "Cache-Control": "no-store",
        "X-Record-Count": String(records),
      },
    });
  } catch (error) {
    console.error("flagged export:", error);
    return new Response(`The export failed: ${(error as Error).message}\n`, { status: 500 });
  }
}
