"use client";

import Link from "next/link";
import { methodLabelOf } from "@/core/train/methods";
import { Allowed } from "@/features/auth/components/Allowed";
import { isActiveStatus } from "@/shared/enums";
import { seconds } from "../format";
import styles from "../runs.module.css";
import type { RunData } from "../types";
import { DeleteRun } from "./DeleteRun";
import { RunActions } from "./RunActions";
import { StatusBadge } from "./StatusBadge";

function resultSeconds(result: unknown): number | null {
  const s = (result as { seconds?: unknown } | null)?.seconds;
  return typeof s === "number" ? s : null;
}

/** The run's name and status, what kind of run it is, where to go from it, and what may be done to it. */
export function RunHeader({
  run: r,
  imported,
  external,
}: {
  run: RunData;
  imported: boolean;
  external: boolean;
}) {
  const took = resultSeconds(r.result);
  return (
    <>
      <div className={styles.header}>
        <h1>{r.name}</h1>
        <StatusBadge status={r.status} />
        {imported ? (
          <span
            className="badge"
            data-testid="run-imported"
            title="no real environment: trained in the synthetic environment built from the domain's logs"
          >
            imported domain · proxies only
          </span>
        ) : null}
        {external ? (
          <span
            className="badge"
            data-testid="run-external"
            title="played by a trainer through the environment server"
          >
            external trainer
          </span>
        ) : null}
        <span style={{ flex: 1 }} />
        <Link className="button" href={`/curriculum?run=${r.id}`}>
          Curriculum heatmap
        </Link>
        <Link className="button" href={`/trajectories?run=${r.id}`}>
          Episodes
        </Link>
        {/* Gaming is measured against the real environment's answers, which an imported domain has none of. */}
        {imported ? null : (
          <Link className="button" href={`/runs/${r.id}/gamed`}>
            Where the model is gamed
          </Link>
        )}
        <Allowed permission="run:cancel">
          {external && !isActiveStatus(r.status) ? null : <RunActions id={r.id} status={r.status} />}
        </Allowed>
        <Allowed permission="run:delete">{isActiveStatus(r.status) ? null : <DeleteRun id={r.id} />}</Allowed>
      </div>
      <p className="sub" style={{ margin: 0 }}>
        {methodLabelOf(r.method)} · {r.algorithm.toUpperCase()} · {r.domain} · created{" "}
        {r.createdAt.toLocaleString()}
        {r.createdBy ? ` by ${r.createdBy}` : ""}
        {r.finishedAt ? ` · finished ${r.finishedAt.toLocaleString()}` : ""}
        {took !== null ? ` · took ${seconds(took)}` : ""} · <span className="mono">{r.id}</span>
      </p>
    </>
  );
}
