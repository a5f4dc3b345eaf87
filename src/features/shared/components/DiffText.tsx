import type { DiffSegment } from "../lib/diffSides";

/** Text with the changed runs marked; model text is rendered as text, never as HTML. */
export function DiffText({
  segments,
  changedClass,
}: {
  segments: DiffSegment[];
  changedClass: string | undefined;
}) {
  return (
    <>
      {segments.map((s, i) =>
        s.changed ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional and rebuilt with the texts
          <mark key={i} className={changedClass}>
            {s.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional and rebuilt with the texts
          <span key={i}>{s.text}</span>
        ),
      )}
    </>
  );
}
