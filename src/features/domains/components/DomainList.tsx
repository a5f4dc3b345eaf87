"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";
import styles from "../domains.module.css";
import { DomainCard } from "./DomainCard";

/** The domains as runs see them, each remote one with its registration and health beside it. */
export function DomainList() {
  const trpc = useTRPC();
  const domains = useQuery(trpc.domains.list.queryOptions());
  const remote = useQuery(trpc.domains.remote.queryOptions());
  const error = domains.error ?? remote.error;
  const byName = new Map((remote.data ?? []).map((r) => [r.name, r]));
  return (
    <section aria-labelledby="domains-heading" className={styles.card}>
      <h2 id="domains-heading">All domains</h2>
      {error ? <div className={`error ${styles.error}`}>{error.message}</div> : null}
      {domains.data ? (
        <ul className={styles.list} data-testid="domain-list">
          {domains.data.map((d) => (
            <li key={d.name}>
              <DomainCard domain={d} remote={byName.get(d.name)} />
            </li>
          ))}
        </ul>
      ) : error ? null : (
        <p className="hint">Loading the domains…</p>
      )}
    </section>
  );
}
