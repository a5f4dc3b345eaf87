"use client";

import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { readFlaggedParams } from "../lib/flaggedParams";
import { useFlaggedSteps } from "../lib/useFlaggedSteps";
import { FlaggedFilters } from "./FlaggedFilters";
import { FlaggedTable } from "./FlaggedTable";
import { RunFidelity } from "./RunFidelity";

/**
 * Steps flagged as hallucinated, filtered by run, domain, author and category (in the URL), each opening where it
 * happened; the filtered list downloads as regression cases.
 */
export function FlaggedSteps() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const { filter, page } = readFlaggedParams(params);
  const flagged = useFlaggedSteps(filter, page);
  const { list, pages } = flagged;

  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(params.toString());
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== "page") next.delete("page");
    router.replace(`${pathname}?${next.toString()}`);
  };

  return (
    <div>
      <FlaggedFilters
        filter={filter}
        runs={flagged.runs}
        domains={flagged.domains}
        authors={flagged.authors}
        loading={list.isLoading}
        total={flagged.total}
        setParam={setParam}
      />

      <p className="hint" data-testid="regression-link">
        Flagged steps are the experience model's regression cases:{" "}
        <Link
          href={filter.domain ? `/regression?domain=${encodeURIComponent(filter.domain)}` : "/regression"}
        >
          run a version of the model against them
        </Link>{" "}
        and see which it gets right.
      </p>

      {flagged.shownRuns.map((id) => (
        <RunFidelity key={id} runId={id} />
      ))}

      {list.error ? <div className="error">{list.error.message}</div> : null}
      <FlaggedTable steps={list.data?.items} filtered={Object.keys(filter).length > 0} />
      <div className="pager">
        <button type="button" disabled={page === 0} onClick={() => setParam("page", String(page - 1))}>
          ← Prev
        </button>
        <span className="hint">
          page {page + 1} of {pages}
        </span>
        <button type="button" disabled={page + 1 >= pages} onClick={() => setParam("page", String(page + 1))}>
          Next →
        </button>
      </div>
    </div>
  );
}
