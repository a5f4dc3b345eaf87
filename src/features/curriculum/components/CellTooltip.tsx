"use client";

import { useQuery } from "@tanstack/react-query";
import type { HeatmapTask } from "@/server/curriculum/heatmap";
import { useTRPC } from "@/trpc/react";
import styles from "../curriculum.module.css";

interface Props {
  runId: string;
  task: HeatmapTask;
  iteration: number;
  variance: number;
  /** The pointer, in viewport pixels. */
  x: number;
  y: number;
}

const fmt = (x: number | undefined) => (x === undefined ? "…" : x.toFixed(3));

/**
 * A cell's statistics. The variance comes with the heatmap; the rest is fetched per task (one small query for
 * the whole row, cached), so the heatmap itself carries one number per cell.
 */
export function CellTooltip({ runId, task, iteration, variance, x, y }: Props) {
  const trpc = useTRPC();
  const stats = useQuery({
    ...trpc.curriculum.taskStats.queryOptions({ runId, taskId: task.id }),
    staleTime: 60_000,
  });
  const cell = stats.data?.find((s) => s.iteration === iteration);
  return (
    <div
      className={styles.tooltip}
      data-testid="heatmap-tooltip"
      // Fixed at the pointer: the grid scrolls inside its panel and would clip a tooltip placed within it.
      style={{
        left: x + 330 > window.innerWidth ? x - 316 : x + 16,
        top: y + 240 > window.innerHeight ? y - 220 : y + 16,
      }}
    >
      <div className={styles.instr}>{task.instruction || task.id}</div>
      <dl>
        <dt>iteration</dt>
        <dd>{iteration}</dd>
        <dt>reward variance</dt>
        <dd>{fmt(variance)}</dd>
        <dt>mean reward</dt>
        <dd>{fmt(cell?.meanReward)}</dd>
        <dt>success</dt>
        <dd>{cell ? `${Math.round(cell.successRate * 100)}%` : "…"}</dd>
        <dt>rollouts</dt>
        <dd>{cell ? cell.count : "…"}</dd>
        <dt>task</dt>
        <dd className="mono">
          {task.id} · {task.origin}
          {task.generation > 0 ? ` gen ${task.generation}` : ""}
        </dd>
      </dl>
      <div className={styles.go}>Click for this task's episodes in iteration {iteration}</div>
    </div>
  );
}
