"use client";

import { useCan } from "@/features/auth/lib/useMe";
import type { AnnotationFilter } from "@/shared/annotationFilter";
import styles from "../annotations.module.css";
import { AssignPanel } from "./AssignPanel";
import { GuidelinesPanel } from "./GuidelinesPanel";
import { StatsPanel } from "./StatsPanel";

interface Props {
  filter: AnnotationFilter;
  annotators: { email: string; name: string }[];
}

/** Beside the queue: the guidelines, each annotator's progress and their agreement, and (for leads) assignment. */
export function QueueSide({ filter, annotators }: Props) {
  const canAssign = useCan("annotation:assign");
  return (
    <aside className={styles.sideColumn} aria-label="Guidelines and progress">
      <GuidelinesPanel />
      <StatsPanel />
      {canAssign ? <AssignPanel filter={filter} annotators={annotators} /> : null}
    </aside>
  );
}
