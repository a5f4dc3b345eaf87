"use client";

import type { RefObject } from "react";
import { Allowed } from "@/features/auth/components/Allowed";
import { type AnnotationFilter, exportStatuses } from "@/shared/annotationFilter";
import { REVIEWED_STATUSES } from "@/shared/enums";
import styles from "../annotations.module.css";
import { exportHref, STATUS_TABS } from "../lib/queueParams";
import type { QueueCounts } from "../types";

interface Props {
  filter: AnnotationFilter;
  counts: QueueCounts | undefined;
  exportRecords: number | undefined;
  exportRef: RefObject<HTMLAnchorElement | null>;
  /** Why the last export asked for (x or the button) had nothing to download. */
  exportNotice: string | null;
  /** The export was asked for while there is nothing to export: the queue says why. */
  onExportUnavailable: () => void;
  onFilter: (filter: AnnotationFilter) => void;
}

/** Status tabs with their counts, the domain and teacher filters, and the export of what the filters select. */
export function QueueToolbar({
  filter,
  counts,
  exportRecords,
  exportRef,
  exportNotice,
  onExportUnavailable,
  onFilter,
}: Props) {
  const exportable = (exportRecords ?? 0) > 0;
  return (
    <div className={styles.toolbar}>
      <div className={styles.filterGroup}>
        <div className={styles.tabs} role="toolbar" aria-label="Status">
          {STATUS_TABS.map((tab, i) => (
            <button
              key={tab.value}
              type="button"
              aria-pressed={filter.status === tab.value}
              title={`${tab.label} (key ${i + 1})`}
              onClick={() => onFilter({ ...filter, status: tab.value })}
            >
              {tab.label}
              <span className={styles.count} data-testid={`count-${tab.value}`}>
                {counts ? (tab.value === "all" ? counts.total : counts.counts[tab.value]) : "–"}
              </span>
            </button>
          ))}
        </div>
        <label className="field">
          Domain
          <select
            value={filter.domain ?? ""}
            onChange={(e) => onFilter({ ...filter, domain: e.target.value || undefined })}
          >
            <option value="">all domains</option>
            {counts?.domains.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Teacher
          <select
            value={filter.teacher ?? ""}
            onChange={(e) => onFilter({ ...filter, teacher: e.target.value || undefined })}
          >
            <option value="">all teachers</option>
            {counts?.teachers.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className={styles.export}>
        <span className="hint" data-testid="export-count">
          {exportRecords === undefined
            ? "counting…"
            : exportable
              ? `${exportRecords} SFT record${exportRecords === 1 ? "" : "s"}`
              : exportStatuses(filter.status).length === 0
                ? `only ${REVIEWED_STATUSES.join(" and ")} traces are exported`
                : "nothing reviewed here yet"}
        </span>
        <Allowed permission="annotation:export">
          <a
            ref={exportRef}
            className={`button ${styles.exportButton}`}
            href={exportable ? exportHref(filter) : undefined}
            download={exportable ? "" : undefined}
            aria-disabled={!exportable}
            title="Download the reviewed SFT dataset (JSONL) under these filters (x)"
            onClick={(e) => {
              if (exportable) return;
              e.preventDefault();
              onExportUnavailable();
            }}
          >
            Export JSONL <kbd>x</kbd>
          </a>
        </Allowed>
        {exportNotice ? (
          <div
            className={`${styles.notice} ${styles.exportNotice}`}
            role="status"
            data-testid="export-notice"
          >
            {exportNotice}
          </div>
        ) : null}
      </div>
    </div>
  );
}
