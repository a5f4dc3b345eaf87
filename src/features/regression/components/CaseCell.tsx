import styles from "../regression.module.css";
import type { MatrixCell } from "../types";

const part = (ok: boolean, label: string) => (
  <span className={ok ? styles.ok : styles.wrong} title={`${label} ${ok ? "right" : "wrong"}`}>
    {label} {ok ? "✓" : "✗"}
  </span>
);

/** One version's answer to one case: right or wrong, part by part, and what changed against the version before. */
export function CaseCell({ cell }: { cell: MatrixCell | null }) {
  if (!cell)
    return (
      <td className="hint" data-testid="case-cell" data-right="none">
        not run
      </td>
    );
  const { predicted } = cell;
  return (
    <td
      data-testid="case-cell"
      data-right={String(cell.right)}
      data-mark={cell.mark ?? ""}
      className={cell.mark ? styles[cell.mark] : undefined}
    >
      <div className={styles.cellHead}>
        <span className={`badge ${cell.right ? "good" : "bad"}`}>{cell.right ? "right" : "wrong"}</span>
        {cell.mark ? (
          <span className={`badge ${cell.mark === "fixed" ? "good" : "bad"}`} data-testid="case-mark">
            {cell.mark}
          </span>
        ) : null}
      </div>
      <div className={styles.parts}>
        {part(cell.nextStateOk, "state")}
        {part(cell.rewardOk, "reward")}
        {part(cell.doneOk, "done")}
      </div>
      <div className={`mono ${styles.text}`} title={predicted.reasoning || undefined}>
        {predicted.error ? `unusable reply: ${predicted.error}` : predicted.nextState}
      </div>
      <div className="hint">
        reward {predicted.reward} · done {String(predicted.done)}
        {predicted.f1 !== undefined ? ` · F1 ${predicted.f1.toFixed(2)}` : ""}
      </div>
    </td>
  );
}
