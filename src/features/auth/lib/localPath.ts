/**
 * Where to go after signing in: only a path on this site. A `next` naming another site ("//evil.example",
 * "https://…") would make the sign-in page an open redirect; the sign-in page itself would loop.
 */
export function localPath(next: string | null): string {
  return next?.startsWith("/") &&
    !next.startsWith("//") &&
    !next.startsWith("/\\") &&
    !next.startsWith("/sign-in")
    ? next
    : "/";
}
