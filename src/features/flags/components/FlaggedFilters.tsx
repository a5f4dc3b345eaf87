import { Allowed } from "@/features/auth/components/Allowed";
import type { FlaggedFilter } from "@/shared/flaggedFilter";
import styles from "../flags.module.css";
import { flaggedExportHref } from "../lib/flaggedParams";
import { FlagCategoryOptions } from "./FlagCategoryOptions";

interface Props {
  filter: FlaggedFilter;
  runs: ReadonlyArray<{ id: string; name: string; domain: string }>;
  domains: string[];
  /** Who flagged the steps under the filters; undefined until the list is here. */
  authors: string[] | undefined;
  loading: boolean;
  total: number;
  /** Sets one URL parameter ("" removes it). */
  setParam: (key: string, value: string) => void;
}

/** The flagged list's filters (run, domain, author, category), its count, and the export of what they select. */
export function FlaggedFilters({ filter, runs, domains, authors, loading, total, setParam }: Props) {
  const { runId, domain, author, category } = filter;
  return (
    <div className="filters">
      <label className="field">
        Run
        <select aria-label="Run" value={runId ?? ""} onChange={(e) => setParam("run", e.target.value)}>
          <option value="">all runs</option>
          {runs.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name} ({r.domain})
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        Domain
        <select aria-label="Domain" value={domain ?? ""} onChange={(e) => setParam("domain", e.target.value)}>
          <option value="">all domains</option>
          {domains.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        Author
        <select aria-label="Author" value={author ?? ""} onChange={(e) => setParam("author", e.target.value)}>
          <option value="">anyone</option>
          {/* The chosen author (from a link, say) stays chosen while the list loads or when it lacks them. */}
          {author && !authors?.includes(author) ? <option value={author}>{author}</option> : null}
          {(authors ?? []).map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        Category
        <select
          aria-label="Category"
          value={category ?? ""}
          onChange={(e) => setParam("category", e.target.value)}
        >
          <option value="">all categories</option>
          <FlagCategoryOptions />
        </select>
      </label>
      <span className="hint" data-testid="flagged-count">
        {loading ? "loading…" : `${total} flagged step${total === 1 ? "" : "s"}`}
      </span>
      <Allowed permission="step:export">
        <a
          className={`button ${styles.exportButton}`}
          href={total > 0 ? flaggedExportHref(filter) : undefined}
          download={total > 0 ? "" : undefined}
          aria-disabled={total === 0}
          title={
            total > 0
              ? "Download these flagged steps as JSONL regression cases for the experience model"
              : "No flagged step under these filters to export"
          }
        >
          Export regression cases (JSONL)
        </a>
      </Allowed>
    </div>
  );
}
