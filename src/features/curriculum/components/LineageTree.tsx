"use client";

import Link from "next/link";
import { useState } from "react";
import type { Lineage } from "@/server/curriculum/lineage";
import styles from "../curriculum.module.css";

const SHOWN = 300;

/** Seed tasks and the variations the curriculum wrote of them, indented by generation. */
export function LineageTree({ lineage }: { lineage: Lineage }) {
  const [all, setAll] = useState(false);
  if (lineage.nodes.length === 0)
    return (
      <p className="hint" data-testid="lineage-empty">
        This run's curriculum has written no task variations (yet).
      </p>
    );
  const nodes = all ? lineage.nodes : lineage.nodes.slice(0, SHOWN);
  return (
    <>
      <ul className={styles.tree} aria-label="Task lineage">
        {nodes.map((n) => (
          <li
            key={n.id}
            className={`${styles.node} ${n.generatedHere ? "" : styles.context}`}
            style={{ paddingLeft: 8 + n.depth * 22 }}
            data-testid="lineage-node"
            data-depth={n.depth}
          >
            <span className={styles.branch}>{n.depth > 0 ? "└─" : "●"}</span>
            <span className={`badge ${n.origin === "generated" ? "" : "muted"}`}>
              {n.origin === "generated" ? `gen ${n.generation}` : n.origin}
            </span>
            <span>
              {n.instruction} <span className={styles.nodeId}>{n.id}</span>
            </span>
            <span className={styles.nodeStat}>
              {n.iterations > 0 ? (
                <Link href={`/trajectories?run=${lineage.runId}&task=${encodeURIComponent(n.id)}`}>
                  var {n.meanVariance?.toFixed(3)} · {n.iterations} it
                </Link>
              ) : (
                "not rolled out"
              )}
            </span>
          </li>
        ))}
      </ul>
      {lineage.nodes.length > SHOWN && !all ? (
        <button type="button" onClick={() => setAll(true)} style={{ marginTop: 8 }}>
          Show all {lineage.nodes.length} tasks
        </button>
      ) : null}
      {lineage.truncated ? (
        <p className="hint">Only the first {lineage.generated} variations are listed.</p>
      ) : null}
    </>
  );
}
