"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { type CheatsheetEntry, ShortcutCheatsheet } from "@/features/shared/components/ShortcutCheatsheet";
import { useReviewerName } from "@/features/shared/lib/reviewerName";
import { useKeyboardShortcuts } from "@/features/shared/useKeyboardShortcuts";
import type { AnnotationFilter } from "@/shared/annotationFilter";
import type { ReviewAction } from "@/shared/enums";
import { useTRPC } from "@/trpc/react";
import styles from "../annotations.module.css";
import { queueQuery, readQueueParams, STATUS_TABS } from "../lib/queueParams";
import { useItemLock } from "../lib/useItemLock";
import { AnnotatorGate, WhoAmI } from "./AnnotatorGate";
import { QueueList } from "./QueueList";
import { QueueToolbar } from "./QueueToolbar";
import { ReviewHeader } from "./ReviewHeader";
import { ReviewHistory } from "./ReviewHistory";
import { StepContext } from "./StepContext";
import { TraceReview } from "./TraceReview";

const CHEATSHEET: CheatsheetEntry[] = [
  { keys: ["j", "↓"], description: "next trace" },
  { keys: ["k", "↑"], description: "previous trace" },
  { keys: ["a"], description: "accept the teacher's trace as it is" },
  { keys: ["e"], description: "edit: write a correction" },
  { keys: ["Ctrl+Enter", "⌘+Enter"], description: "save the correction (in the editor)" },
  { keys: ["Esc"], description: "cancel the edit, or close this" },
  { keys: ["r"], description: "reject the trace (left out of the SFT set)" },
  { keys: ["u"], description: "reopen a reviewed trace" },
  { keys: ["1", "2", "3", "4", "5"], description: "pending / accepted / edited / rejected / all" },
  { keys: ["x"], description: "export the reviewed SFT set under these filters (JSONL)" },
  { keys: ["?"], description: "show or hide this cheatsheet" },
];

/** Lists and counts refresh on their own: the teacher job adds traces, other annotators take and review them. */
const REFRESH_MS = 10_000;

/**
 * The annotation queue: teacher reasoning traces awaiting review, worked through from the keyboard. The trace on
 * screen is locked for its annotator; a review that leaves the filtered list moves on to the next trace.
 */
export function AnnotationQueue() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const params = useSearchParams();
  const filter = useMemo(() => readQueueParams(new URLSearchParams(params.toString())), [params]);
  const [name, setName] = useReviewerName();
  const me = name || null;

  const list = useQuery({ ...trpc.annotations.list.queryOptions(filter), refetchInterval: REFRESH_MS });
  const counts = useQuery({
    ...trpc.annotations.counts.queryOptions({
      ...(filter.domain ? { domain: filter.domain } : {}),
      ...(filter.teacher ? { teacher: filter.teacher } : {}),
    }),
    refetchInterval: REFRESH_MS,
  });
  const exportCount = useQuery(trpc.annotations.exportCount.queryOptions(filter));
  const items = useMemo(() => list.data?.items ?? [], [list.data]);

  const [selectedId, setSelectedId] = useState<string | null>(null);
  const lastIndex = useRef(0);
  const index = items.findIndex((i) => i.id === selectedId);

  // Keep a selection: the first trace nobody else has open on arrival, and after a review took the current one
  // out of the list, the one that took its place.
  useEffect(() => {
    if (!list.data || !me) return;
    if (index >= 0) {
      lastIndex.current = index;
      return;
    }
    if (items.length === 0) return setSelectedId(null);
    if (selectedId === null) {
      const now = Date.now();
      const free = items.find(
        (i) => !i.lockedBy || i.lockedBy === me || (i.lockExpiresAt?.getTime() ?? 0) <= now,
      );
      return setSelectedId((free ?? items[0]!).id);
    }
    setSelectedId(items[Math.min(lastIndex.current, items.length - 1)]!.id);
  }, [list.data, items, index, selectedId, me]);

  const detail = useQuery({
    ...trpc.annotations.get.queryOptions({ id: selectedId ?? "" }),
    enabled: selectedId !== null,
  });
  const item = detail.data && detail.data.id === selectedId ? detail.data : undefined;
  const lock = useItemLock(me ? selectedId : null, me);

  // Moving through the queue should not wait on the server.
  useEffect(() => {
    for (const other of [items[index + 1], items[index - 1]]) {
      if (other) void queryClient.prefetchQuery(trpc.annotations.get.queryOptions({ id: other.id }));
    }
  }, [items, index, queryClient, trpc]);

  const [draft, setDraft] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [cheatsheet, setCheatsheet] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a draft and a notice belong to the trace they began on
  useEffect(() => {
    setDraft(null);
    setNotice(null);
  }, [selectedId]);

  const review = useMutation(
    trpc.annotations.review.mutationOptions({
      onSuccess: () => {
        setDraft(null);
        setNotice(null);
      },
      onError: (error) => {
        setNotice(error.message);
        if (error.data?.code === "CONFLICT") lock.retake();
      },
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.annotations.pathKey() }),
    }),
  );

  const act = (action: ReviewAction) => {
    if (!item || !me || review.isPending) return;
    if (lock.state.kind !== "held") {
      setNotice(
        lock.state.kind === "locked" ? lock.state.message : "The lock on this trace is not yours yet",
      );
      return;
    }
    if (action === "edit") return setDraft(item.correction ?? item.teacherText);
    if (action === "reopen" && item.status === "pending") return setNotice("This trace is already pending");
    review.mutate({ id: item.id, author: me, action });
  };
  const save = () => {
    if (!item || !me || draft === null) return;
    review.mutate({ id: item.id, author: me, action: "edit", correction: draft });
  };
  const move = (by: number) => {
    if (items.length === 0) return;
    const next = items[Math.min(Math.max(0, Math.max(index, 0) + by), items.length - 1)];
    if (next) setSelectedId(next.id);
  };
  const setFilter = (next: AnnotationFilter) => {
    setSelectedId(null);
    const query = queueQuery(next);
    router.replace(query ? `/annotations?${query}` : "/annotations", { scroll: false });
  };
  const exportRef = useRef<HTMLAnchorElement | null>(null);

  useKeyboardShortcuts(
    [
      { keys: ["j", "ArrowDown"], description: "next", run: () => move(1) },
      { keys: ["k", "ArrowUp"], description: "previous", run: () => move(-1) },
      { keys: ["a"], description: "accept", run: () => act("accept") },
      { keys: ["e"], description: "edit", run: () => act("edit") },
      { keys: ["r"], description: "reject", run: () => act("reject") },
      { keys: ["u"], description: "reopen", run: () => act("reopen") },
      {
        keys: ["1", "2", "3", "4", "5"],
        description: "status",
        run: (e) => setFilter({ ...filter, status: STATUS_TABS[Number(e.key) - 1]!.value }),
      },
      {
        keys: ["x"],
        description: "export",
        run: () => ((exportCount.data?.records ?? 0) > 0 ? exportRef.current?.click() : undefined),
      },
      { keys: ["?"], description: "cheatsheet", run: () => setCheatsheet((open) => !open) },
      { keys: ["Escape"], description: "close", run: () => setCheatsheet(false) },
    ],
    Boolean(me) && draft === null,
  );

  const toolbar = (
    <QueueToolbar
      filter={filter}
      counts={counts.data}
      exportRecords={exportCount.data?.records}
      exportRef={exportRef}
      onFilter={setFilter}
    />
  );

  if (name === undefined) return null;
  if (!me) return <AnnotatorGate onName={setName} />;

  return (
    <>
      <div className={styles.head} style={{ marginBottom: 12 }}>
        <span className="hint">
          <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>a</kbd> accept · <kbd>e</kbd> edit · <kbd>r</kbd> reject ·{" "}
          <kbd>u</kbd> reopen ·{" "}
          <button
            type="button"
            className="hint"
            style={{ padding: "0 6px" }}
            onClick={() => setCheatsheet(true)}
          >
            <kbd>?</kbd> all shortcuts
          </button>
        </span>
        <WhoAmI name={me} onChange={() => setName("")} />
      </div>
      {toolbar}
      {list.error ? <div className="error">{list.error.message}</div> : null}
      {list.data && items.length === 0 ? (
        <section className="panel" data-testid="queue-empty">
          <h2>Nothing here</h2>
          <p className="hint" style={{ margin: 0 }}>
            {filter.status === "pending"
              ? "No traces are waiting for review under these filters. A teacher job (npm run cli -- teacher) adds more."
              : "No traces match these filters."}
          </p>
        </section>
      ) : (
        <div className={styles.layout}>
          <QueueList
            items={items}
            total={list.data?.total ?? 0}
            selectedId={selectedId}
            me={me}
            onSelect={setSelectedId}
          />
          <div className={styles.detail}>
            {detail.error ? <div className="error">{detail.error.message}</div> : null}
            {item ? (
              <>
                <ReviewHeader
                  item={item}
                  position={index + 1}
                  total={list.data?.total ?? items.length}
                  lock={lock.state}
                  busy={review.isPending}
                  onAction={act}
                />
                {notice ? (
                  <div className="error" role="alert" data-testid="review-error">
                    {notice}
                  </div>
                ) : null}
                <TraceReview
                  item={item}
                  draft={draft}
                  saving={review.isPending}
                  onDraft={setDraft}
                  onSave={save}
                  onCancel={() => setDraft(null)}
                />
                <StepContext item={item} />
                <ReviewHistory events={item.events} />
              </>
            ) : list.data ? (
              <p className="hint">Loading trace…</p>
            ) : null}
          </div>
        </div>
      )}
      {cheatsheet ? <ShortcutCheatsheet entries={CHEATSHEET} onClose={() => setCheatsheet(false)} /> : null}
    </>
  );
}
