import Link from "next/link";

/**
 * What a page shows for an id nothing has (a mistyped or stale link, a deleted run): a plain "not found" with the
 * way back, instead of a spinner or a raw error. Rendered by the routes' not-found files (after the page asked
 * the server and called notFound()) and by the feature components when a query answers NOT_FOUND.
 */
export function NotFound({
  title,
  detail,
  back,
}: {
  title: string;
  detail?: string;
  back: { href: string; label: string };
}) {
  return (
    <section className="panel" data-testid="not-found" aria-label="Not found" style={{ maxWidth: 640 }}>
      <h1>{title}</h1>
      <p className="sub">
        {detail ?? "Nothing has this id: the link may be mistyped, or what it named was deleted."}
      </p>
      <Link className="button" href={back.href}>
        {back.label}
      </Link>
    </section>
  );
}
