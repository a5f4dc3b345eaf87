import Link from "next/link";
import { methodLabelOf } from "@/core/train/methods";
import { Allowed } from "@/features/auth/components/Allowed";
import { TrustBadge } from "@/features/trust/components/TrustBadge";
import { budgetText, count, iterationsText, pct, progressPercent } from "../format";
import styles from "../runs.module.css";
import type { RunListItem } from "../types";
import { RunActions } from "./RunActions";
import { StatusBadge } from "./StatusBadge";
import { TagChips } from "./TagChips";

interface Props {
  run: RunListItem;
  selected: boolean;
  /** The run just launched from the form, highlighted. */
  highlighted: boolean;
  onToggle: () => void;
}

/** One run in the list: its selection for comparing, name and kind, status, progress, figures and actions. */
export function RunRow({ run, selected, highlighted, onToggle }: Props) {
  const percent = progressPercent(run.progress);
  const budget = budgetText(run.realTransitions, run.realBudget);
  return (
    <tr data-testid="run-row" data-run-id={run.id} className={highlighted ? styles.highlight : undefined}>
      <td>
        <input type="checkbox" aria-label={`Select ${run.name}`} checked={selected} onChange={onToggle} />
      </td>
      <td>
        <div className={styles.nameCell}>
          <Link href={`/runs/${run.id}`} title={`${run.name} (${run.id})`} data-testid="run-name">
            {run.name}
          </Link>
          <small>
            {run.kind === "external" ? "external trainer · " : ""}
            {methodLabelOf(run.method)} · {run.algorithm.toUpperCase()} · {run.domain}
          </small>
          <TagChips tags={run.tags} />
        </div>
      </td>
      <td>
        <StatusBadge status={run.status} />
      </td>
      <td>
        <div className={styles.progressCell} title={`${percent}%`}>
          <div className="progress">
            <div style={{ width: `${percent}%` }} />
          </div>
          <span data-testid="run-progress">{iterationsText(run.iteration, run.plannedIterations)}</span>
          {budget !== null ? <span data-testid="run-budget">{budget}</span> : null}
        </div>
      </td>
      <td className={styles.num}>{count(run.realTransitions)}</td>
      <td className={styles.num}>{count(run.syntheticTransitions)}</td>
      <td className={styles.num} data-testid="run-final">
        {run.proxy?.final ? (
          <span title="an imported domain has no real environment: synthetic success on its held-out tasks">
            {pct(run.proxy.final.syntheticSuccess)} <small className="hint">proxy</small>
          </span>
        ) : (
          pct(run.finalRealSuccess)
        )}
        <TrustBadge trust={run.trust} />
      </td>
      <td className={`hint ${styles.created}`} title={run.createdAt.toLocaleString()}>
        {run.createdAt.toLocaleString("en-US", {
          month: "short",
          day: "numeric",
          hour: "2-digit",
          minute: "2-digit",
        })}
      </td>
      <td>
        <div className={styles.actions}>
          <Allowed permission="run:cancel">
            <RunActions id={run.id} status={run.status} />
          </Allowed>
        </div>
      </td>
    </tr>
  );
}
