"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { useMe } from "@/features/auth/lib/useMe";
import { ShortcutCheatsheet } from "@/features/shared/components/ShortcutCheatsheet";
import { useKeyboardShortcuts } from "@/features/shared/useKeyboardShortcuts";
import type { AnnotationFilter } from "@/shared/annotationFilter";
import styles from "../annotations.module.css";
import { queueQuery, readQueueParams, STATUS_TABS } from "../lib/queueParams";
import { QUEUE_CHEATSHEET } from "../lib/queueShortcuts";
import { useItemLock } from "../lib/useItemLock";
import { useQueueExport } from "../lib/useQueueExport";
import { useQueueItem, useQueueQueries } from "../lib/useQueueQueries";
import { useQueueSelection } from "../lib/useQueueSelection";
import { useReview } from "../lib/useReview";
import { QueueEmpty } from "./QueueEmpty";
import { QueueHead } from "./QueueHead";
import { QueueList } from "./QueueList";
import { QueueToolbar } from "./QueueToolbar";
import { ReviewPane } from "./ReviewPane";

/**
 * The annotation queue: teacher reasoning traces awaiting review, worked through from the keyboard. The trace on
 * screen is locked for its annotator; a review that leaves the filtered list moves on to the next trace.
 */
export function AnnotationQueue() {
  const router = useRouter();
  const params = useSearchParams();
  const filter = useMemo(() => readQueueParams(new URLSearchParams(params.toString())), [params]);
  const signedIn = useMe();
  // Locks and reviews are recorded under the signed-in email; other roles read the queue without taking locks.
  const me = signedIn?.email ?? null;
  const canReview = Boolean(signedIn?.permissions.includes("annotation:review"));

  const { list, counts, exportCount, items } = useQueueQueries(filter);
  const { selectedId, setSelectedId, index, move } = useQueueSelection(items, list.data !== undefined, me);
  const detail = useQueueItem(selectedId);
  const lock = useItemLock(canReview ? selectedId : null, canReview ? me : null);
  const review = useReview({ item: detail.item, selectedId, canReview, lock });
  const exporter = useQueueExport(filter, exportCount.data?.records);
  const [cheatsheet, setCheatsheet] = useState(false);

  const setFilter = (next: AnnotationFilter) => {
    setSelectedId(null);
    exporter.clearNotice();
    const query = queueQuery(next);
    router.replace(query ? `/annotations?${query}` : "/annotations", { scroll: false });
  };

  useKeyboardShortcuts(
    [
      { keys: ["j", "ArrowDown"], description: "next", run: () => move(1) },
      { keys: ["k", "ArrowUp"], description: "previous", run: () => move(-1) },
      { keys: ["a"], description: "accept", run: () => review.act("accept") },
      { keys: ["e"], description: "edit", run: () => review.act("edit") },
      { keys: ["r"], description: "reject", run: () => review.act("reject") },
      { keys: ["u"], description: "reopen", run: () => review.act("reopen") },
      {
        keys: ["1", "2", "3", "4", "5"],
        description: "status",
        run: (e) => setFilter({ ...filter, status: STATUS_TABS[Number(e.key) - 1]!.value }),
      },
      { keys: ["x"], description: "export", run: exporter.exportNow },
      { keys: ["?"], description: "cheatsheet", run: () => setCheatsheet((open) => !open) },
      { keys: ["Escape"], description: "close", run: () => setCheatsheet(false) },
    ],
    Boolean(me) && review.draft === null,
  );

  if (!signedIn) return null;

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
      {list.data && items.length === 0 ? (
        <QueueEmpty status={filter.status} />
      ) : (
        <div className={styles.layout}>
          <QueueList
            items={items}
            total={list.data?.total ?? 0}
            selectedId={selectedId}
            me={me ?? ""}
            onSelect={setSelectedId}
          />
          <ReviewPane
            item={detail.item}
            error={detail.error}
            listed={list.data !== undefined}
            position={index + 1}
            total={list.data?.total ?? items.length}
            lock={lock.state}
            review={review}
          />
        </div>
      )}
      {cheatsheet ? (
        <ShortcutCheatsheet entries={QUEUE_CHEATSHEET} onClose={() => setCheatsheet(false)} />
      ) : null}
    </>
  );
}
