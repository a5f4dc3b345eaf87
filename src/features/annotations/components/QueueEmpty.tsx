import type { StatusFilter } from "@/shared/annotationFilter";

/** No trace under the filters: on the pending tab, where more come from. */
export function QueueEmpty({ status }: { status: StatusFilter }) {
  return (
    <section className="panel" data-testid="queue-empty">
      <h2>Nothing here</h2>
      <p className="hint" style={{ margin: 0 }}>
        {status === "pending"
          ? "No traces are waiting for review under these filters. A teacher job (npm run cli -- teacher) adds more."
          : "No traces match these filters."}
      </p>
    </section>
  );
}
