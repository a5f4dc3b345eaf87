import { Fragment } from "react";
import { configDiff } from "../configDiff";
import styles from "../runs.module.css";
import type { ComparedRunData } from "../types";
import { SeriesSwatch } from "./SeriesLegend";
import type { Series } from "./series";

/** The settings on which the compared runs differ (nested keys flattened), one column per run. */
export function ConfigDiff({
  runs,
  series,
}: {
  runs: readonly ComparedRunData[];
  series: readonly Series[];
}) {
  const diff = configDiff(runs.map((r) => r.config));
  return (
    <section className={`panel ${styles.configDiff}`} aria-label="Config diff" data-testid="config-diff">
      <h2>
        Config diff
        <small>{diff.length === 0 ? "the configs are the same" : `${diff.length} settings differ`}</small>
      </h2>
      {diff.length > 0 ? (
        <div className={styles.tableWrap}>
          <table className="grid" aria-label="Settings that differ">
            <thead>
              <tr>
                <th>Setting</th>
                {runs.map((r, i) => (
                  <th key={r.id} title={r.name}>
                    {series[i] ? <SeriesSwatch series={series[i]} /> : null}
                    <span className={styles.diffRun}>{r.name}</span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {diff.map((d) => (
                <tr key={d.key} data-testid="config-diff-row" data-key={d.key}>
                  <th scope="row" className="mono">
                    {/* A long path breaks after its dots, never inside a name. */}
                    {d.key.split(".").map((part, i) => (
                      <Fragment key={d.key.split(".", i + 1).join(".")}>
                        {i > 0 ? (
                          <>
                            .<wbr />
                          </>
                        ) : null}
                        {part}
                      </Fragment>
                    ))}
                  </th>
                  {d.values.map((v, i) => (
                    <td key={runs[i]?.id ?? i} className={`mono ${styles.diffValue}`}>
                      {v ?? <span className="hint">—</span>}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
