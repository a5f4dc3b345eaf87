"use client";

import { useKeyboardShortcuts } from "@/features/shared/useKeyboardShortcuts";
import type { AnnotationFilter } from "@/shared/annotationFilter";
import { STATUS_TABS } from "./queueParams";
import type { useBulkActions } from "./useBulkActions";
import type { useReview } from "./useReview";

interface Keys {
  enabled: boolean;
  filter: AnnotationFilter;
  selectedId: string | null;
  move: (by: number) => void;
  review: ReturnType<typeof useReview>;
  bulk: ReturnType<typeof useBulkActions>;
  setFilter: (filter: AnnotationFilter) => void;
  exportNow: () => void;
  toggleCheatsheet: () => void;
  closeCheatsheet: () => void;
}

/** The queue's keys (the cheatsheet, lib/queueShortcuts.ts, lists them); off while a correction is being written. */
export function useQueueKeys(k: Keys): void {
  useKeyboardShortcuts(
    [
      { keys: ["j", "ArrowDown"], description: "next", run: () => k.move(1) },
      { keys: ["k", "ArrowUp"], description: "previous", run: () => k.move(-1) },
      { keys: ["a"], description: "accept", run: () => k.review.act("accept") },
      { keys: ["e"], description: "edit", run: () => k.review.act("edit") },
      { keys: ["r"], description: "reject", run: () => k.review.act("reject") },
      { keys: ["u"], description: "undo", run: () => k.review.undo() },
      { keys: ["s"], description: "select", run: () => k.selectedId && k.bulk.toggle(k.selectedId) },
      { keys: ["A"], description: "accept selected", run: () => k.bulk.accept() },
      { keys: ["R"], description: "reject selected", run: () => k.bulk.reject() },
      {
        keys: ["1", "2", "3", "4", "5"],
        description: "status",
        run: (e) => k.setFilter({ ...k.filter, status: STATUS_TABS[Number(e.key) - 1]!.value }),
      },
      { keys: ["x"], description: "export", run: k.exportNow },
      { keys: ["?"], description: "cheatsheet", run: k.toggleCheatsheet },
      { keys: ["Escape"], description: "close", run: k.closeCheatsheet },
    ],
    k.enabled,
  );
}
