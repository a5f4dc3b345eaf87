"use client";

import { useRef, useState } from "react";
import { type AnnotationFilter, exportStatuses } from "@/shared/annotationFilter";
import { REVIEWED_STATUSES } from "@/shared/enums";
import { STATUS_TABS } from "./queueParams";

/** Why the export (x or the button) has nothing to download under these filters. */
export function nothingToExport(filter: AnnotationFilter, records: number | undefined): string {
  const tab = STATUS_TABS.find((t) => t.value === filter.status)?.label ?? filter.status;
  const switchTo = STATUS_TABS.map((t, i) => ({ ...t, key: i + 1 }))
    .filter((t) => t.value === "all" || (REVIEWED_STATUSES as readonly string[]).includes(t.value))
    .map((t) => `${t.label} (key ${t.key})`);
  // "(key 2)", not "(2)": a bare number in brackets reads as a count.
  if (exportStatuses(filter.status).length === 0)
    return `Nothing to export on the ${tab} tab: only reviewed traces (${REVIEWED_STATUSES.join(" or ")}) are exported. Switch to ${switchTo.slice(0, -1).join(", ")} or ${switchTo.at(-1)}.`;
  if (records === undefined) return "Still counting what the export holds; try again in a moment.";
  return `Nothing to export: no ${REVIEWED_STATUSES.join(" or ")} traces under these filters yet.`;
}

/**
 * The export of the reviewed SFT set: x (or the button) clicks the toolbar's download link when there is
 * something to download, and otherwise says why not.
 */
export function useQueueExport(filter: AnnotationFilter, records: number | undefined) {
  const [notice, setNotice] = useState<string | null>(null);
  const ref = useRef<HTMLAnchorElement | null>(null);
  const exportNow = () => {
    if ((records ?? 0) > 0) {
      setNotice(null);
      ref.current?.click();
    } else setNotice(nothingToExport(filter, records));
  };
  return { ref, notice, clearNotice: () => setNotice(null), exportNow };
}
