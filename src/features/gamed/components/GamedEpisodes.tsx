"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { type CheatsheetEntry, ShortcutCheatsheet } from "@/features/shared/components/ShortcutCheatsheet";
import { useKeyboardShortcuts } from "@/features/shared/useKeyboardShortcuts";
import { type GamedFilter, iterationRangeIssue, readGamedParams } from "@/shared/gamedFilter";
import { useTRPC } from "@/trpc/react";
import styles from "../gamed.module.css";
import { openHref } from "../lib/gamedView";
import { GamedEmpty } from "./GamedEmpty";
import { GamedFilters } from "./GamedFilters";
import { GamedIntro } from "./GamedIntro";
import { GamedPager } from "./GamedPager";
import { GamedSummary } from "./GamedSummary";
import { GamedTable } from "./GamedTable";

const PAGE_SIZE = 50;

const CHEATSHEET: CheatsheetEntry[] = [
  { keys: ["j", "↓"], description: "next episode" },
  { keys: ["k", "↑"], description: "previous episode" },
  { keys: ["Enter", "o"], description: "open the step view where the model and the real environment part" },
  { keys: ["n", "p"], description: "next / previous page" },
  { keys: ["?"], description: "show or hide this cheatsheet" },
  { keys: ["Esc"], description: "close" },
];

/**
 * Where the model is gamed: synthetic episodes ranked by how much more the experience model paid than the real
 * environment pays for the same actions, with the figures of the run (or of the filters across runs) on top.
 * Keyboard-first like the other review screens: j/k move, Enter opens the step where the two part.
 */
export function GamedEpisodes({ runId }: { runId?: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const query = params.toString();
  const filter: GamedFilter = useMemo(() => {
    const read = readGamedParams(new URLSearchParams(query));
    return runId ? { ...read, runId } : read;
  }, [query, runId]);
  const page = Math.max(0, Number(params.get("page") ?? 0) || 0);
  const rangeIssue = iterationRangeIssue(filter);

  const summary = useQuery(trpc.gamed.summary.queryOptions(filter, { enabled: rangeIssue === null }));
  const list = useQuery(
    trpc.gamed.episodes.queryOptions(
      { ...filter, offset: page * PAGE_SIZE, limit: PAGE_SIZE },
      { enabled: rangeIssue === null },
    ),
  );
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  // The selection belongs to the page it was made on.
  const [selection, setSelection] = useState({ page, index: 0 });
  const selected = selection.page === page ? Math.min(selection.index, Math.max(0, items.length - 1)) : 0;
  const [cheatsheet, setCheatsheet] = useState(false);

  const setParam = (name: string, value: string) => {
    const next = new URLSearchParams(query);
    if (value) next.set(name, value);
    else next.delete(name);
    if (name !== "page") next.delete("page");
    const search = next.toString();
    router.replace(search ? `${pathname}?${search}` : pathname);
  };
  const move = (by: number) =>
    setSelection({ page, index: Math.min(Math.max(0, selected + by), Math.max(0, items.length - 1)) });
  const goToPage = (to: number) => {
    if (to >= 0 && to < pages) setParam("page", to > 0 ? String(to) : "");
  };
  const open = (event: KeyboardEvent) => {
    // Enter on a focused link or button is that control's: the shortcut only opens the selected row.
    const control = event.target instanceof HTMLElement ? event.target.closest("a, button") : null;
    if (control instanceof HTMLElement) control.click();
    else {
      const episode = items[selected];
      if (episode) router.push(openHref(episode));
    }
  };

  useKeyboardShortcuts([
    { keys: ["j", "ArrowDown"], description: "next", run: () => move(1) },
    { keys: ["k", "ArrowUp"], description: "previous", run: () => move(-1) },
    { keys: ["Enter", "o"], description: "open", run: open },
    { keys: ["n"], description: "next page", run: () => goToPage(page + 1) },
    { keys: ["p"], description: "previous page", run: () => goToPage(page - 1) },
    { keys: ["?"], description: "cheatsheet", run: () => setCheatsheet((shown) => !shown) },
    { keys: ["Escape"], description: "close", run: () => setCheatsheet(false) },
  ]);

  const run = summary.data?.run ?? null;
  const filtered = filter.iterationFrom !== undefined || filter.iterationTo !== undefined || !!filter.domain;
  const count = rangeIssue
    ? ""
    : list.isLoading
      ? "loading…"
      : `${total} episode${total === 1 ? "" : "s"} with a real answer, largest excess first`;

  return (
    <div className={styles.page}>
      <GamedIntro runName={run?.name ?? null} runId={runId} onCheatsheet={() => setCheatsheet(true)} />

      {run && !run.synthetic ? null : (
        <GamedFilters filter={filter} fixedRun={runId !== undefined} setParam={setParam} count={count} />
      )}
      {rangeIssue ? <div className="error">{rangeIssue}</div> : null}
      {summary.error ? <div className="error">{summary.error.message}</div> : null}
      {list.error && !summary.error ? <div className="error">{list.error.message}</div> : null}

      {summary.data && summary.data.ranked === 0 ? (
        <GamedEmpty summary={summary.data} filtered={filtered} />
      ) : (
        <>
          {summary.data ? (
            <GamedSummary summary={summary.data} />
          ) : rangeIssue ? null : (
            <p className="hint">Comparing every synthetic episode with its real replay…</p>
          )}
          {items.length > 0 ? (
            <>
              <GamedTable
                items={items}
                offset={page * PAGE_SIZE}
                selected={selected}
                onSelect={(index) => setSelection({ page, index })}
                showRun={runId === undefined && !filter.runId}
              />
              <GamedPager page={page} pages={pages} onPage={goToPage} />
            </>
          ) : list.data && page > 0 ? (
            <p className="hint">
              No episodes on this page. <Link href={pathname}>Back to the first page</Link>
            </p>
          ) : null}
        </>
      )}
      {cheatsheet ? <ShortcutCheatsheet entries={CHEATSHEET} onClose={() => setCheatsheet(false)} /> : null}
    </div>
  );
}
