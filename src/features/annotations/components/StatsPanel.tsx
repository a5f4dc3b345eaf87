"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";
import styles from "../annotations.module.css";

const pct = (x: number | null) => (x === null ? "–" : `${Math.round(x * 100)}%`);
const kappa = (k: number | null) => (k === null ? "–" : k.toFixed(2));

/**
 * How far each annotator is with the work assigned to them, and how often annotators who reviewed the same item
 * agree: the share of agreeing pairs of verdicts, and Cohen's kappa per pair (agreement beyond chance).
 */
export function StatsPanel() {
  const trpc = useTRPC();
  const stats = useQuery({ ...trpc.annotations.stats.queryOptions(), refetchInterval: 10_000 });
  const s = stats.data;
  const people = s?.progress.filter((p) => p.assigned > 0 || p.reviewed > 0) ?? [];
  return (
    <section className={`panel ${styles.sidePanel}`} aria-label="Progress and agreement" data-testid="stats">
      <h2>Progress</h2>
      {people.length === 0 ? (
        <p className="hint" style={{ margin: 0 }}>
          Nothing assigned or reviewed yet.
        </p>
      ) : (
        <table className={styles.statsTable}>
          <thead>
            <tr>
              <th>Annotator</th>
              <th title="assigned items they reviewed / items assigned to them">done</th>
              <th title="verdicts given in all">reviewed</th>
            </tr>
          </thead>
          <tbody>
            {people.map((p) => (
              <tr key={p.email} data-testid="progress-row" data-email={p.email}>
                <td title={p.email}>{p.name}</td>
                <td data-testid="progress-done">
                  {p.done}/{p.assigned}
                </td>
                <td>{p.reviewed}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2 style={{ marginTop: 12 }}>Agreement</h2>
      {s && s.agreement.overlapping > 0 ? (
        <>
          <p style={{ margin: 0 }} data-testid="agreement">
            {pct(s.agreement.percent)} agree on {s.agreement.overlapping} overlapping item
            {s.agreement.overlapping === 1 ? "" : "s"}
          </p>
          <table className={styles.statsTable} style={{ marginTop: 6 }}>
            <tbody>
              {s.agreement.byPair.map((p) => (
                <tr key={`${p.a}|${p.b}`} data-testid="agreement-pair">
                  <td>
                    {p.a.split("@")[0]} · {p.b.split("@")[0]}
                  </td>
                  <td>
                    {p.agreeing}/{p.items}
                  </td>
                  <td title="Cohen's kappa (1960): agreement beyond chance; – where undefined">
                    κ {kappa(p.kappa)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : (
        <p className="hint" style={{ margin: 0 }} data-testid="agreement">
          No item reviewed by two annotators yet: assign with an overlap to measure agreement.
        </p>
      )}
    </section>
  );
}
