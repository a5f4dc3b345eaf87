import { type Config, config } from "@/env";
import { appOrigins } from "./origins";

/** Methods that only read. */
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Why a request may not use its session cookie here, or null when it may. A browser sends the app's cookie with
 * any request to the app's host, including a form or fetch from a page on another site or on another port of the
 * same host (cookies do not tell ports apart). Only the page's origin, which the browser writes into Origin (or
 * Referer) and a page cannot forge, tells the app's own pages from the others. So:
 * - a change (POST …) with a cookie must name the app's origin (the host it came to, the public URL, or one of
 *   DREAMGYM_TRUSTED_ORIGINS) in Origin, or in Referer when Origin is missing; naming none is refused too;
 * - a read (GET: a download) with a cookie is refused when a script on another origin fetched it (Origin names
 *   that origin). A link followed from elsewhere, a typed address or a bookmark sends no Origin and is let through:
 *   it changes nothing, and only the person's own browser sees the answer.
 * A request with an Authorization header carries its own credentials (a bearer token), which no page elsewhere
 * can make a browser send, and one without a cookie has no session to misuse: neither is checked.
 */
export function crossSiteRefusal(request: Request, settings: Config = config()): string | null {
  const { headers } = request;
  if (headers.has("authorization") || !headers.has("cookie")) return null;
  const reads = READS.has(request.method);
  const claimed = headers.get("origin") || (reads ? null : refererOrigin(headers.get("referer")));
  if (claimed === null)
    return reads
      ? null
      : "This request was refused: it changes something with your session cookie but names no page it came from (no Origin or Referer header), so another site could have sent it. Send it from DreamGym's own pages, or from a script with `Authorization: Bearer <token>` instead of the cookie.";
  const own = ownOrigin(request);
  if (claimed === own || appOrigins(settings).includes(claimed)) return null;
  return `This request was refused: it came from a page at ${claimed}, not from DreamGym (${own ?? appOrigins(settings)[0]}), and a page elsewhere may not use your session. If DreamGym is served at ${claimed}, add that origin to DREAMGYM_TRUSTED_ORIGINS.`;
}

/** The 403 a route handler answers with when crossSiteRefusal has a reason; null when the request may go on. */
export function crossSiteResponse(request: Request, settings: Config = config()): Response | null {
  const refusal = crossSiteRefusal(request, settings);
  return refusal ? new Response(`${refusal}\n`, { status: 403 }) : null;
}

/**
 * The origin the request was sent to: the scheme it arrived by and the Host it names. A browser names the host
 * the page's address bar shows, so a page of the app itself always matches it.
 */
function ownOrigin(request: Request): string | null {
  const url = new URL(request.url);
  try {
    return new URL(`${url.protocol}//${request.headers.get("host") ?? url.host}`).origin;
  } catch {
    return null;
  }
}

/** The origin of a Referer, "null" when it cannot be read (never the app's), null when there is none. */
function refererOrigin(referer: string | null): string | null {
  if (!referer) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return "null";
  }
}
