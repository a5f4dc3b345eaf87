"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { isActiveStatus } from "@/shared/enums";
import { useTRPC } from "@/trpc/react";
import { ChartSettingsProvider } from "../chart/ChartSettings";
import { seriesStyle } from "../format";
import styles from "../runs.module.css";
import { ChartControls } from "./ChartControls";
import { CompareCharts } from "./CompareCharts";
import { CompareTable } from "./CompareTable";
import { ConfigDiff } from "./ConfigDiff";
import { CsvDownload } from "./CsvDownload";
import type { Series } from "./series";

/** Several runs: their figures, the settings on which they differ beside their curves, and one CSV of all. */
export function ComparePage() {
  const trpc = useTRPC();
  const ids = (useSearchParams().get("ids") ?? "").split(",").filter(Boolean);
  const runs = useQuery({
    ...trpc.runs.compare.queryOptions({ ids }),
    enabled: ids.length > 0,
    refetchInterval: (query) => (query.state.data?.some((r) => isActiveStatus(r.status)) ? 2_000 : false),
  });
  if (ids.length === 0)
    return (
      <p className="hint">
        Pick runs with the checkboxes on <Link href="/runs">Runs</Link>, then “Compare selected”.
      </p>
    );
  if (runs.error) return <div className="error">{runs.error.message}</div>;
  if (!runs.data) return <p className="hint">Loading…</p>;
  const series: Series[] = runs.data.map((r, i) => ({ ...seriesStyle(i), key: `r${i}`, label: r.name }));
  return (
    <div className={styles.page}>
      <CompareTable runs={runs.data} series={series} />
      <ChartSettingsProvider>
        <div className={styles.chartBar}>
          <ChartControls />
          <CsvDownload runs={runs.data} fileName={`dreamgym-compare-${runs.data.length}-runs-metrics.csv`} />
        </div>
        <div className={styles.compareBody}>
          <CompareCharts runs={runs.data} series={series} />
          <ConfigDiff runs={runs.data} series={series} />
        </div>
      </ChartSettingsProvider>
    </div>
  );
}
