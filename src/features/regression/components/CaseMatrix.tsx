import { stepHref } from "@/features/gamed/lib/gamedView";
import { heldOutFigures } from "../lib/regressionParams";
import styles from "../regression.module.css";
import type { RegressionMatrix } from "../types";
import { CaseCell } from "./CaseCell";

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;

/**
 * The cases side by side across versions, oldest version first: the real answer, then each version's prediction,
 * right or wrong, marked where it fixed or broke the case against the version before.
 */
export function CaseMatrix({ matrix }: { matrix: RegressionMatrix }) {
  const { versions, rows, tallies } = matrix;
  if (versions.length === 0)
    return <p className="hint">No version has finished on this suite yet: its cases appear when one does.</p>;
  return (
    <div className="scroll-x">
      <table className={`grid ${styles.matrix}`} aria-label="Cases across versions">
        <thead>
          <tr>
            <th>Case: the real answer</th>
            {versions.map((v, i) => {
              const tally = tallies[i];
              const figures = heldOutFigures(v.fidelity);
              return (
                <th key={v.id} data-testid="version-head">
                  <div className="mono">{v.label}</div>
                  {tally ? (
                    <div className="hint" data-testid="version-tally">
                      {tally.right}/{tally.cases} right · {tally.fixed} fixed · {tally.broken} broken
                    </div>
                  ) : null}
                  {figures ? (
                    <div className="hint" data-testid="version-fidelity">
                      held-out: F1 {figures.tokenF1.toFixed(2)} · reward {pct(figures.rewardAccuracy)} · done{" "}
                      {pct(figures.doneAccuracy)}
                    </div>
                  ) : null}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.stepId} data-testid="case-row" data-step={row.stepId}>
              <td>
                <div className="mono" data-testid="case-action">
                  {row.expected.action}
                </div>
                <div className={`mono ${styles.text}`}>{row.expected.nextState}</div>
                <div className="hint">
                  reward {row.expected.reward} · done {String(row.expected.done)}
                  {row.location ? (
                    <>
                      {" · "}
                      <a href={stepHref({ id: row.location.trajectoryId, runId: null }, row.location.index)}>
                        open the step
                      </a>
                    </>
                  ) : null}
                </div>
              </td>
              {row.cells.map((cell, i) => (
                <CaseCell key={versions[i]?.id ?? i} cell={cell} />
              ))}
            </tr>
          ))}
          {rows.length === 0 ? (
            <tr>
              <td colSpan={versions.length + 1} className="hint">
                No cases here: flag steps of this domain (with <kbd>f</kbd> in the step view), or run a
                version with held-out transitions.
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
