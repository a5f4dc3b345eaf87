"use client";

import { useEffect, useRef } from "react";
import { formatReward } from "@/features/shared/lib/formatReward";
import styles from "../annotations.module.css";
import { truncate } from "../lib/truncate";
import type { QueueItem } from "../types";
import { LockIcon } from "./LockIcon";

interface Props {
  items: QueueItem[];
  total: number;
  selectedId: string | null;
  me: string;
  onSelect: (id: string) => void;
  /** Chosen for a bulk action (s, or the row's box). */
  isChecked: (id: string) => boolean;
  onToggle: (id: string) => void;
}

/** A row shows this much of its task's instruction (the whole one is its tooltip). */
const INSTRUCTION_CHARS = 70;

/**
 * The queue, oldest first; each row says which task's episode its step is from. The current item stays in view
 * as the keyboard moves through it.
 */
export function QueueList({ items, total, selectedId, me, onSelect, isChecked, onToggle }: Props) {
  const current = useRef<HTMLButtonElement | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when the selection moves
  useEffect(() => {
    // A block body: newer browsers return a promise from scrollIntoView, and React takes any return for a cleanup.
    current.current?.scrollIntoView({ block: "nearest" });
  }, [selectedId]);
  const now = Date.now();
  return (
    <nav className={styles.list} aria-label="Queue">
      <div className={styles.listHead}>
        <span data-testid="queue-total">
          {total} trace{total === 1 ? "" : "s"}
        </span>
        {total > items.length ? <span>first {items.length} shown</span> : <span>oldest first</span>}
      </div>
      <ul className={styles.listBody}>
        {items.map((item) => {
          const lockedByOther =
            item.lockedBy && item.lockedBy !== me && item.lockExpiresAt && item.lockExpiresAt.getTime() > now;
          return (
            <li key={item.id} className={styles.row}>
              <input
                type="checkbox"
                className={styles.check}
                aria-label={`Select ${item.domain} step ${item.stepIndex + 1}`}
                checked={isChecked(item.id)}
                onChange={() => onToggle(item.id)}
                data-testid="queue-item-check"
              />
              <button
                type="button"
                className={styles.item}
                aria-current={item.id === selectedId}
                ref={item.id === selectedId ? current : undefined}
                onClick={() => onSelect(item.id)}
                data-testid="queue-item"
                data-id={item.id}
                data-mine={item.mine || undefined}
              >
                <span className={styles.dot} data-status={item.status} title={item.status} />
                <span className={styles.itemTitle}>
                  <span>
                    {item.domain} · step {item.stepIndex + 1}
                    {item.reward > 0 ? ` · reward ${formatReward(item.reward, { trim: true })}` : ""}
                  </span>
                  {item.mine ? (
                    <span className={styles.mineTag} data-testid="assigned-to-me">
                      yours
                    </span>
                  ) : null}
                  {lockedByOther ? (
                    <span className={styles.lockTag} data-testid="locked-by">
                      <LockIcon /> {item.lockedBy}
                    </span>
                  ) : item.author && !item.mine ? (
                    <span>{item.author}</span>
                  ) : null}
                </span>
                <span
                  className={styles.itemInstruction}
                  title={item.instruction}
                  data-testid="queue-item-instruction"
                >
                  {truncate(item.instruction, INSTRUCTION_CHARS)}
                </span>
                <span className={styles.itemAction}>{item.action}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
