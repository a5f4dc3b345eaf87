"use client";

import { useId } from "react";
import { DomainTrust } from "@/features/trust/components/DomainTrust";
import styles from "../domains.module.css";
import type { Domain, RemoteDomain } from "../types";
import { KindBadge } from "./KindBadge";
import { RemoteDetails } from "./RemoteDetails";
import { TaskSummary } from "./TaskSummary";

/** One domain: its name, kind and tasks, and a remote one's registration. */
export function DomainCard({ domain, remote }: { domain: Domain; remote: RemoteDomain | undefined }) {
  const headingId = useId();
  return (
    <article className={`panel ${styles.card}`} aria-labelledby={headingId} data-testid="domain-card">
      <div className={styles.cardHead}>
        <h3 id={headingId}>{domain.name}</h3>
        <KindBadge kind={domain.kind} />
      </div>
      <div className={styles.label}>{domain.label}</div>
      <TaskSummary domain={domain} remote={remote} />
      {remote ? <RemoteDetails remote={remote} /> : null}
      {domain.kind === "imported" ? <DomainTrust domain={domain.name} /> : null}
    </article>
  );
}
