"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { useMe } from "@/features/auth/lib/useMe";
import { ShortcutCheatsheet } from "@/features/shared/components/ShortcutCheatsheet";
import type { AnnotationFilter } from "@/shared/annotationFilter";
import { useTRPC } from "@/trpc/react";
import styles from "../annotations.module.css";
import { queueQuery, readQueueParams } from "../lib/queueParams";
import { QUEUE_CHEATSHEET } from "../lib/queueShortcuts";
import { useBulkActions } from "../lib/useBulkActions";
import { useItemLock } from "../lib/useItemLock";
import { useQueueExport } from "../lib/useQueueExport";
import { useQueueKeys } from "../lib/useQueueKeys";
import { useQueueItem, useQueueQueries } from "../lib/useQueueQueries";
import { useQueueSelection } from "../lib/useQueueSelection";
import { useReview } from "../lib/useReview";
import { BulkBar } from "./BulkBar";
import { QueueEmpty } from "./QueueEmpty";
import { QueueHead } from "./QueueHead";
import { QueueList } from "./QueueList";
import { QueueSide } from "./QueueSide";
import { QueueToolbar } from "./QueueToolbar";
import { ReviewPane } from "./ReviewPane";

/**
 * The annotation queue: teacher reasoning traces awaiting review, worked through from the keyboard. The item on
 * screen is named in the URL and locked for its annotator; a review that leaves the filtered list moves on to the
 * next item. Beside it: the guidelines, progress and agreement, and assignment for those who hand out work.
 */
export function AnnotationQueue() {
  const router = useRouter();
  const trpc = useTRPC();
  const params = useSearchParams();
  const filter = useMemo(() => readQueueParams(new URLSearchParams(params.toString())), [params]);
  const signedIn = useMe();
  // Locks and reviews are recorded under the signed-in email; other roles read the queue without taking locks.
  const me = signedIn?.email ?? null;
  const canReview = Boolean(signedIn?.permissions.includes("annotation:review"));

  const { list, counts, exportCount, items } = useQueueQueries(filter);
  const selection = useQueueSelection(items, list.data !== undefined, me);
  const { selectedId } = selection;
  const detail = useQueueItem(selectedId);
  const lock = useItemLock(canReview ? selectedId : null, canReview ? me : null);
  const review = useReview({ item: detail.item, selectedId, canReview, lock, onUndone: selection.reveal });
  const bulk = useBulkActions(items);
  const annotators = useQuery(trpc.annotations.annotators.queryOptions()).data ?? [];
  const exporter = useQueueExport(filter, exportCount.data?.records);
  const [cheatsheet, setCheatsheet] = useState(false);

  const setFilter = (next: AnnotationFilter) => {
    selection.setSelectedId(null);
    exporter.clearNotice();
    const query = queueQuery(next);
    router.replace(query ? `/annotations?${query}` : "/annotations", { scroll: false });
  };

  useQueueKeys({
    enabled: Boolean(me) && review.draft === null,
    filter,
    selectedId,
    move: selection.move,
    review,
    bulk,
    setFilter,
    exportNow: exporter.exportNow,
    toggleCheatsheet: () => setCheatsheet((open) => !open),
    closeCheatsheet: () => setCheatsheet(false),
  });

  if (!signedIn) return null;
  const empty = list.data !== undefined && items.length === 0;

  return (
    <>
      <QueueHead
        name={signedIn.name}
        role={signedIn.role}
        canReview={canReview}
        onCheatsheet={() => setCheatsheet(true)}
      />
      <QueueToolbar
        filter={filter}
        counts={counts.data}
        exportRecords={exportCount.data?.records}
        exportRef={exporter.ref}
        exportNotice={exporter.notice}
        onExportUnavailable={exporter.exportNow}
        onFilter={setFilter}
      />
      {list.error ? <div className="error">{list.error.message}</div> : null}
      <div className={styles.layout}>
        {empty ? (
          <div className={styles.listColumn}>
            <QueueEmpty status={filter.status} />
          </div>
        ) : (
          <>
            <div className={styles.listColumn}>
              <BulkBar bulk={bulk} annotators={annotators} />
              <QueueList
                items={items}
                total={list.data?.total ?? 0}
                selectedId={selectedId}
                me={me ?? ""}
                onSelect={selection.setSelectedId}
                isChecked={bulk.isChecked}
                onToggle={bulk.toggle}
              />
            </div>
            <ReviewPane
              item={detail.item}
              error={detail.error}
              listed={list.data !== undefined}
              position={selection.index + 1}
              total={list.data?.total ?? items.length}
              lock={lock.state}
              review={review}
            />
          </>
        )}
        <QueueSide filter={filter} annotators={annotators} />
      </div>
      {cheatsheet ? (
        <ShortcutCheatsheet entries={QUEUE_CHEATSHEET} onClose={() => setCheatsheet(false)} />
      ) : null}
    </>
  );
}
