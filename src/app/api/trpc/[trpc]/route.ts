import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { readBodyUpTo } from "@/server/api/limitedBody";
import { appRouter } from "@/server/api/root";
import { createContext } from "@/server/api/trpc";
import { crossSiteResponse } from "@/server/auth/sameOrigin";

export const dynamic = "force-dynamic";

/** A call's JSON is small (the largest is a run's config); files go to /api/imports, which streams them. */
const CALL_LIMIT_BYTES = 2 * 1024 * 1024;

async function handler(req: Request): Promise<Response> {
  // Before tRPC reads anything: it would take a form or a text/plain body from a page elsewhere as a call.
  const crossSite = crossSiteResponse(req);
  if (crossSite) return crossSite;
  let request = req;
  if (req.body) {
    // tRPC reads a body whole; this reads it only up to the limit.
    const body = await readBodyUpTo(req, CALL_LIMIT_BYTES);
    if (!body)
      return new Response(
        `The request is larger than the ${CALL_LIMIT_BYTES / (1024 * 1024)} MB limit of an API call. Upload trajectory files on the Jobs page or with the command line.\n`,
        { status: 413 },
      );
    request = new Request(req.url, { method: req.method, headers: req.headers, body, signal: req.signal });
  }
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    createContext,
    onError({ path, error }) {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`tRPC ${path ?? "?"}:`, error);
    },
  });
}

export { handler as GET, handler as POST };
