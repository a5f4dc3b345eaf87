import Link from "next/link";
import styles from "../runs.module.css";
import type { RunListItem } from "../types";
import { RunRow } from "./RunRow";

interface Props {
  runs: readonly RunListItem[] | undefined;
  /** Runs exist, but the search or filters hide them all. */
  filteredOut: boolean;
  selected: readonly string[];
  launched: string | null;
  onToggle: (id: string) => void;
}

/**
 * The runs table. It fits a 1440 px window: the method, algorithm and domain share the name's cell, long names
 * are cut with the whole name (and the id) in their title, and the run's id and config are on its own page.
 */
export function RunsTable({ runs, filteredOut, selected, launched, onToggle }: Props) {
  return (
    <div className={styles.tableFit} data-testid="runs-table-wrap">
      <table className={`grid ${styles.runsTable}`} aria-label="Runs">
        <thead>
          <tr>
            <th aria-label="Select" />
            <th>Run</th>
            <th>Status</th>
            <th>Progress</th>
            <th className={styles.num}>Real transitions</th>
            <th className={styles.num}>Synthetic transitions</th>
            <th
              className={styles.num}
              title="on held-out test tasks in the real environment; for an imported domain, which has none, the synthetic-success proxy (marked so)"
            >
              Test success (final)
            </th>
            <th>Created</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {runs?.length === 0 ? (
            <tr>
              <td colSpan={9} className={styles.empty}>
                {filteredOut ? (
                  "No run matches the search and filters."
                ) : (
                  <>
                    No runs yet. Launch one with <Link href="/runs/new">New run</Link>.
                  </>
                )}
              </td>
            </tr>
          ) : null}
          {runs?.map((run) => (
            <RunRow
              key={run.id}
              run={run}
              selected={selected.includes(run.id)}
              highlighted={run.id === launched}
              onToggle={() => onToggle(run.id)}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
