"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import type { Heatmap as HeatmapData } from "@/server/curriculum/heatmap";
import { isActiveStatus } from "@/shared/enums";
import { useTRPC } from "@/trpc/react";
import styles from "../curriculum.module.css";
import { Heatmap } from "./Heatmap";
import { HeatmapEmpty } from "./HeatmapEmpty";
import { HeatmapLegend } from "./HeatmapLegend";
import { LineageTree } from "./LineageTree";

export function CurriculumPage({ initialHeatmap }: { initialHeatmap: HeatmapData | null }) {
  const trpc = useTRPC();
  const router = useRouter();
  const runId = useSearchParams().get("run") ?? "";
  // The heatmap goes first on its own: the picker and the lineage wait for it, so that tRPC's request batching
  // never makes the heatmap wait for them.
  const [heatmapSettled, setHeatmapSettled] = useState(false);
  const runs = useQuery({
    ...trpc.curriculum.runs.queryOptions({}),
    enabled: runId === "" || heatmapSettled,
    refetchInterval: (query) => (query.state.data?.some((r) => isActiveStatus(r.status)) ? 5_000 : false),
  });
  const run = runs.data?.find((r) => r.id === runId);
  const live = run ? isActiveStatus(run.status) : false;
  const heatmap = useQuery({
    ...trpc.curriculum.heatmap.queryOptions({ runId }),
    enabled: runId !== "",
    // Rendered with the page on the server; the client refetches only while the run is live.
    initialData: initialHeatmap?.runId === runId ? initialHeatmap : undefined,
    refetchInterval: live ? 2_000 : false,
  });
  // Settled: data (from the server render or a fetch) or an error; initial data does not count as "fetched".
  const settled = heatmap.status !== "pending";
  useEffect(() => {
    if (settled) setHeatmapSettled(true);
  }, [settled]);
  const lineage = useQuery({
    ...trpc.curriculum.lineage.queryOptions({ runId }),
    enabled: runId !== "" && heatmapSettled,
    refetchInterval: live ? 5_000 : false,
  });

  // No run picked: open the latest one that has statistics, so the page is never blank when there is data.
  useEffect(() => {
    if (runId || !runs.data) return;
    const first = runs.data.find((r) => r.taskStats > 0) ?? runs.data[0];
    if (first) router.replace(`/curriculum?run=${first.id}`);
  }, [runId, runs.data, router]);

  const data = heatmap.data;
  const generatedInMap = data?.tasks.filter((t) => t.origin === "generated").length ?? 0;
  return (
    <div className={styles.page}>
      <div className={styles.toolbar}>
        <label className="field">
          Run
          <select
            aria-label="Run"
            value={runId}
            onChange={(e) => router.replace(`/curriculum?run=${e.target.value}`)}
          >
            {runId && !run ? <option value={runId}>{runId}</option> : null}
            {runs.data?.length === 0 ? <option value="">No runs yet</option> : null}
            {runs.data?.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name} · {r.status} · {r.taskStats} task stats
              </option>
            ))}
          </select>
        </label>
        {runId ? <Link href={`/runs/${runId}`}>Run page →</Link> : null}
        {live ? <span className="badge">live</span> : null}
      </div>
      {runs.error ? <div className="error">{runs.error.message}</div> : null}
      {heatmap.error ? <div className="error">{heatmap.error.message}</div> : null}

      {runId ? (
        <section className="panel" aria-label="Reward variance heatmap">
          <div className={styles.heatmapHead}>
            <h2>Task value: reward variance per task and iteration</h2>
            {data ? (
              <span className={styles.meta} data-testid="heatmap-meta">
                {data.tasks.length} tasks ({generatedInMap} generated) × {data.iterations.length} iterations ·
                sorted by mean variance
              </span>
            ) : null}
            {data ? <HeatmapLegend maxVariance={data.maxVariance} /> : null}
          </div>
          {!data ? (
            <p className="hint">Loading…</p>
          ) : data.tasks.length === 0 ? (
            <HeatmapEmpty runId={runId} />
          ) : (
            <Heatmap data={data} />
          )}
          <p className="hint" style={{ marginBottom: 0 }}>
            High variance: the group sometimes succeeds and sometimes fails, where the curriculum learns most
            and writes variations. Hover a cell for its statistics; click it for that task's episodes.
          </p>
        </section>
      ) : null}

      {runId ? (
        <section className="panel" aria-label="Task lineage">
          <h2>
            Task lineage{" "}
            <span className="hint">
              seed task → variations{lineage.data ? ` · ${lineage.data.generated} written by this run` : ""}
            </span>
          </h2>
          {lineage.error ? <div className="error">{lineage.error.message}</div> : null}
          {lineage.data ? <LineageTree lineage={lineage.data} /> : <p className="hint">Loading…</p>}
        </section>
      ) : null}
    </div>
  );
}
