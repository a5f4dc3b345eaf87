"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { isRealDomainName } from "@/core/envs/names";
import { Allowed } from "@/features/auth/components/Allowed";
import { SourceBadge } from "@/features/shared/components/Badges";
import { formatReward } from "@/features/shared/lib/formatReward";
import { FLAG_CATEGORY_LABELS, FlagCategory } from "@/shared/enums";
import { type FlaggedFilter, flaggedFilterQuery } from "@/shared/flaggedFilter";
import { verdictOf } from "@/shared/realAnswer";
import { useTRPC } from "@/trpc/react";
import styles from "../flags.module.css";
import { FlagCategoryOptions } from "./FlagCategoryOptions";
import { RunFidelity } from "./RunFidelity";

const PAGE_SIZE = 50;
/** Without a run filter, the figures of this many of the newest runs are shown. */
const RUNS_SHOWN = 3;

/** The flagged steps under these filters as JSONL regression cases for the experience model. */
export function flaggedExportHref(filter: FlaggedFilter): string {
  const query = flaggedFilterQuery(filter).toString();
  return `/api/flagged/export${query ? `?${query}` : ""}`;
}

/**
 * Steps flagged as hallucinated, filtered by run, domain, author and category (in the URL), each opening where it
 * happened; the filtered list downloads as regression cases.
 */
export function FlaggedSteps() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const runId = params.get("run") || undefined;
  const domain = params.get("domain") || undefined;
  const author = params.get("author") || undefined;
  const parsedCategory = FlagCategory.safeParse(params.get("category"));
  const category = parsedCategory.success ? parsedCategory.data : undefined;
  const filter: FlaggedFilter = {
    ...(runId ? { runId } : {}),
    ...(domain ? { domain } : {}),
    ...(author ? { author } : {}),
    ...(category ? { category } : {}),
  };
  const page = Math.max(0, Number(params.get("page") ?? 0) || 0);

  const runs = useQuery(trpc.trajectories.runOptions.queryOptions());
  const facets = useQuery(trpc.trajectories.facets.queryOptions());
  const list = useQuery(
    trpc.steps.flagged.queryOptions({
      ...filter,
      page,
      pageSize: PAGE_SIZE,
    }),
  );

  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(params.toString());
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== "page") next.delete("page");
    router.replace(`${pathname}?${next.toString()}`);
  };

  const domains = [...new Set(facets.data?.map((f) => f.domain) ?? [])].sort();
  // A run in an imported domain has no real environment, so no fidelity to show: its steps have no real answer.
  const runsWithEpisodes = (runs.data ?? []).filter(
    (r) => r.iterations.length > 0 && isRealDomainName(r.domain),
  );
  const shownRuns = runId ? [runId] : runsWithEpisodes.slice(0, RUNS_SHOWN).map((r) => r.id);
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <div>
      <div className="filters">
        <label className="field">
          Run
          <select aria-label="Run" value={runId ?? ""} onChange={(e) => setParam("run", e.target.value)}>
            <option value="">all runs</option>
            {(runs.data ?? []).map((r) => (
              <option key={r.id} value={r.id}>
                {r.name} ({r.domain})
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Domain
          <select
            aria-label="Domain"
            value={domain ?? ""}
            onChange={(e) => setParam("domain", e.target.value)}
          >
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
          <select
            aria-label="Author"
            value={author ?? ""}
            onChange={(e) => setParam("author", e.target.value)}
          >
            <option value="">anyone</option>
            {author && !list.data?.authors.includes(author) ? <option value={author}>{author}</option> : null}
            {(list.data?.authors ?? []).map((a) => (
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
          {list.isLoading ? "loading…" : `${total} flagged step${total === 1 ? "" : "s"}`}
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

      {shownRuns.map((id) => (
        <RunFidelity key={id} runId={id} />
      ))}

      {list.error ? <div className="error">{list.error.message}</div> : null}
      <table className="grid" aria-label="Flagged steps">
        <thead>
          <tr>
            <th>Step</th>
            <th>Episode</th>
            <th>Flag</th>
            <th>Against the real answer</th>
            <th>Flagged</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((s) => {
            const verdict = verdictOf({
              nextState: s.nextState,
              reward: s.reward,
              done: false,
              valid: true,
              realNextState: s.realNextState,
              realReward: s.realReward,
              realDone: null,
              realValid: null,
            });
            const href = `/trajectories/${s.trajectory.id}?step=${s.index}`;
            return (
              <tr key={s.id}>
                <td>
                  <div>step {s.index + 1}</div>
                  <div className={styles.clip} title={s.action}>
                    {s.action}
                  </div>
                </td>
                <td>
                  <div>{s.trajectory.task.instruction}</div>
                  <div className="row hint" style={{ gap: 8, marginTop: 2 }}>
                    <SourceBadge source={s.trajectory.source} />
                    <span>{s.trajectory.domain}</span>
                    {s.trajectory.run ? (
                      <span>
                        {s.trajectory.run.name} · iteration {s.trajectory.iteration}
                      </span>
                    ) : null}
                  </div>
                </td>
                <td className={styles.noteCell}>
                  <div className="row" style={{ gap: 6 }}>
                    <span className="badge bad" data-testid="flagged-category">
                      {FLAG_CATEGORY_LABELS[FlagCategory.safeParse(s.flagCategory).data ?? "other"]}
                    </span>
                    {s.flagAuthor ? (
                      <span className="hint" data-testid="flagged-author">
                        by {s.flagAuthor}
                      </span>
                    ) : null}
                  </div>
                  <div style={{ marginTop: 4 }}>{s.flagNote ?? <span className="hint">no note</span>}</div>
                </td>
                <td>
                  {verdict ? (
                    <span className="hint">
                      state {verdict.state ? <b className={styles.bad}>differs</b> : "same"} · reward{" "}
                      {formatReward(s.reward, { decimals: 3, trim: true })} vs{" "}
                      {formatReward(s.realReward ?? 0, { decimals: 3, trim: true })}
                    </span>
                  ) : (
                    <span className="hint">no real answer</span>
                  )}
                </td>
                <td className="hint">{s.flaggedAt?.toLocaleString()}</td>
                <td>
                  <Link
                    href={href}
                    aria-label={`Open step ${s.index + 1} of ${s.trajectory.task.instruction}`}
                  >
                    open →
                  </Link>
                </td>
              </tr>
            );
          })}
          {list.data && list.data.items.length === 0 ? (
            <tr>
              <td colSpan={6} className="hint">
                No flagged steps{runId || domain || author || category ? " match these filters" : " yet"}.
                Flag a step from its episode with <kbd>f</kbd>.
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
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
