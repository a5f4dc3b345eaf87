import { getSessionCookie } from "better-auth/cookies";
import { type NextRequest, NextResponse } from "next/server";

/**
 * Sends a browser without a session cookie to the sign-in page. This only spares people a page of refusals: the
 * server checks the session and the role on every tRPC call, download and environment-server request.
 */
export function proxy(request: NextRequest) {
  if (getSessionCookie(request)) return NextResponse.next();
  const url = new URL("/sign-in", request.url);
  const next = request.nextUrl.pathname + request.nextUrl.search;
  if (next !== "/") url.searchParams.set("next", next);
  return NextResponse.redirect(url);
}

export const config = {
  // Pages only: the API answers 401 itself, and sign-in, static files and images stay reachable.
  matcher: ["/((?!api|sign-in|_next/static|_next/image|favicon.ico|.*\\.(?:png|svg|ico|txt)$).*)"],
};
