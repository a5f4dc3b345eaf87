"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { useMe } from "@/features/auth/lib/useMe";
import { type CheatsheetEntry, ShortcutCheatsheet } from "@/features/shared/components/ShortcutCheatsheet";
import { useKeyboardShortcuts } from "@/features/shared/useKeyboardShortcuts";
import { type AnnotationFilter, exportStatuses } from "@/shared/annotationFilter";
import { REVIEWED_STATUSES, type ReviewAction } from "@/shared/enums";
import { useTRPC } from "@/trpc/react";
import styles from "../annotations.module.css";
import { queueQuery, readQueueParams, STATUS_TABS } from "../lib/queueParams";
import { useItemLock } from "../lib/useItemLock";
import { QueueList } from "./QueueList";
import { QueueToolbar } from "./QueueToolbar";
import { ReviewHeader } from "./ReviewHeader";
import { ReviewHistory } from "./ReviewHistory";
import { StepContext } from "./StepContext";
import { TraceReview } from "./TraceReview";
import { WhoAmI } from "./WhoAmI";

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

/** How a review action is named when the queue says why it did nothing. */
const ACTION_NAMES: Record<ReviewAction, string> = {
  accept: "Accept (a)",
  edit: "Edit (e)",
  reject: "Reject (r)",
  reopen: "Reopen (u)",
};

/** A message under the review header: a plain answer to a key that did nothing, or a refusal from the server. */
interface Notice {
  tone: "info" | "error";
  text: string;
}

/** Why the export (x or the button) has nothing to download under these filters. */
function nothingToExport(filter: AnnotationFilter, records: number | undefined): string {
  const tab = STATUS_TABS.find((t) => t.value === filter.status)?.label ?? filter.status;
  const switchTo = STATUS_TABS.map((t, i) => ({ ...t, key: i + 1 }))
    .filter((t) => t.value === "all" || (REVIEWED_STATUSES as readonly string[]).includes(t.value))
    .map((t) => `${t.label} (${t.key})`);
  if (exportStatuses(filter.status).length === 0)
    return `Nothing to export on the ${tab} tab: only reviewed traces (${REVIEWED_STATUSES.join(" or ")}) are exported. Switch to ${switchTo.slice(0, -1).join(", ")} or ${switchTo.at(-1)}.`;
  if (records === undefined) return "Still counting what the export holds; try again in a moment.";
  return `Nothing to export: no ${REVIEWED_STATUSES.join(" or ")} traces under these filters yet.`;
}

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
  const signedIn = useMe();
  // Locks and reviews are recorded under the signed-in email; other roles read the queue without taking locks.
  const me = signedIn?.email ?? null;
  const canReview = Boolean(signedIn?.permissions.includes("annotation:review"));

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
  const lock = useItemLock(canReview ? selectedId : null, canReview ? me : null);

  // Moving through the queue should not wait on the server.
  useEffect(() => {
    for (const other of [items[index + 1], items[index - 1]]) {
      if (other) void queryClient.prefetchQuery(trpc.annotations.get.queryOptions({ id: other.id }));
    }
  }, [items, index, queryClient, trpc]);

  const [draft, setDraft] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [lockNudge, setLockNudge] = useState<string | null>(null);
  const [exportNotice, setExportNotice] = useState<string | null>(null);
  const [cheatsheet, setCheatsheet] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a draft and a notice belong to the trace they began on
  useEffect(() => {
    setDraft(null);
    setNotice(null);
    setLockNudge(null);
  }, [selectedId]);
  // Once the lock is ours, "waits for the lock" no longer holds.
  useEffect(() => {
    if (lock.state.kind === "held") setLockNudge(null);
  }, [lock.state.kind]);

  const review = useMutation(
    trpc.annotations.review.mutationOptions({
      onSuccess: () => {
        setDraft(null);
        setNotice(null);
      },
      onError: (error) => {
        if (error.data?.code === "CONFLICT") {
          lock.retake();
          // Someone else has the trace: the lock banner is about to say who and until when; once is enough.
          if (error.data.lock) return setNotice(null);
        }
        setNotice({ tone: "error", text: error.message });
      },
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.annotations.pathKey() }),
    }),
  );

  const act = (action: ReviewAction) => {
    if (!item || !canReview || review.isPending) return;
    // Nothing to ask the server: a pending trace has nothing to reopen, whoever holds it.
    if (action === "reopen" && item.status === "pending")
      return setNotice({
        tone: "info",
        text: "This trace is already pending: there is nothing to reopen. Reopen (u) puts an accepted, edited or rejected trace back in the queue.",
      });
    if (lock.state.kind !== "held") {
      setNotice(null);
      return setLockNudge(ACTION_NAMES[action]);
    }
    if (action === "edit") return setDraft(item.correction ?? item.teacherText);
    review.mutate({ id: item.id, action });
  };
  const save = () => {
    if (!item || !canReview || draft === null) return;
    review.mutate({ id: item.id, action: "edit", correction: draft });
  };
  const move = (by: number) => {
    if (items.length === 0) return;
    const next = items[Math.min(Math.max(0, Math.max(index, 0) + by), items.length - 1)];
    if (next) setSelectedId(next.id);
  };
  const setFilter = (next: AnnotationFilter) => {
    setSelectedId(null);
    setExportNotice(null);
    const query = queueQuery(next);
    router.replace(query ? `/annotations?${query}` : "/annotations", { scroll: false });
  };
  const exportRef = useRef<HTMLAnchorElement | null>(null);
  const exportable = (exportCount.data?.records ?? 0) > 0;
  const exportNow = () => {
    if (exportable) {
      setExportNotice(null);
      exportRef.current?.click();
    } else setExportNotice(nothingToExport(filter, exportCount.data?.records));
  };

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
        run: exportNow,
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
      exportNotice={exportNotice}
      onExportUnavailable={exportNow}
      onFilter={setFilter}
    />
  );

  if (!signedIn) return null;

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
        <WhoAmI name={signedIn.name} role={signedIn.role} canReview={canReview} />
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
            me={me ?? ""}
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
                  nudge={lockNudge}
                  busy={review.isPending}
                  onAction={act}
                />
                {notice?.tone === "error" ? (
                  <div className="error" role="alert" data-testid="review-error">
                    {notice.text}
                  </div>
                ) : notice ? (
                  <div className={styles.notice} role="status" data-testid="review-notice">
                    {notice.text}
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
