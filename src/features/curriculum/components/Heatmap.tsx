"use client";

import { useRouter } from "next/navigation";
import { type MouseEvent, useEffect, useMemo, useRef, useState } from "react";
import type { Heatmap as HeatmapData } from "@/server/curriculum/heatmap";
import { decodeCells } from "@/shared/cellCodec";
import styles from "../curriculum.module.css";
import { drawHeatmap } from "../drawHeatmap";
import { cellAt, layoutHeatmap } from "../heatmapLayout";
import { CellTooltip } from "./CellTooltip";

export function episodesHref(runId: string, iteration: number, taskId: string): string {
  const q = new URLSearchParams({ run: runId, iteration: String(iteration), task: taskId });
  return `/trajectories?${q.toString()}`;
}

/**
 * Tasks × iterations of reward variance on one canvas: 50,000 cells would be 50,000 elements in the DOM. Hover
 * shows the cell's statistics; a click opens that task's episodes of that iteration.
 */
export function Heatmap({ data }: { data: HeatmapData }) {
  const router = useRouter();
  const wrap = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
  const cells = useMemo(() => decodeCells(data.variance), [data.variance]);
  const [hover, setHover] = useState<{ row: number; col: number; x: number; y: number } | null>(null);
  const layout = useMemo(
    () => (width > 0 ? layoutHeatmap(data.tasks.length, data.iterations.length, width) : null),
    [data.tasks.length, data.iterations.length, width],
  );

  useEffect(() => {
    const el = wrap.current;
    if (!el) return;
    setWidth(el.clientWidth - 2);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth - 2));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const el = canvas.current;
    if (!el || !layout) return;
    drawHeatmap(el, data, cells, layout);
    // What the benchmark and the e2e wait for: the cells are on the canvas.
    el.dataset.drawn = "true";
    performance.mark("heatmap-drawn");
  }, [data, cells, layout]);

  const at = (e: MouseEvent<HTMLCanvasElement>) => {
    if (!layout) return null;
    const box = e.currentTarget.getBoundingClientRect();
    const cell = cellAt(layout, e.clientX - box.left, e.clientY - box.top);
    if (!cell) return null;
    return (cells[cell.row * layout.cols + cell.col] ?? -1) >= 0 ? cell : null;
  };
  const hovered = hover && layout ? hover.row * layout.cols + hover.col : -1;
  const task = hover ? data.tasks[hover.row] : undefined;
  const iteration = hover ? data.iterations[hover.col] : undefined;

  return (
    <div ref={wrap} className={styles.canvasWrap}>
      <canvas
        ref={canvas}
        className={`${styles.canvas} ${hover ? styles.onCell : ""}`}
        data-testid="heatmap"
        data-rows={data.tasks.length}
        data-cols={data.iterations.length}
        data-cell-w={layout?.cellW}
        data-cell-h={layout?.cellH}
        data-gutter={layout?.gutter}
        data-header={layout?.header}
        role="img"
        aria-label={`Reward variance of ${data.tasks.length} tasks over ${data.iterations.length} iterations`}
        onMouseMove={(e) => {
          const cell = at(e);
          if (cell?.row !== hover?.row || cell?.col !== hover?.col)
            setHover(cell ? { ...cell, x: e.clientX, y: e.clientY } : null);
        }}
        onMouseLeave={() => setHover(null)}
        onClick={(e) => {
          const cell = at(e);
          const t = cell ? data.tasks[cell.row] : undefined;
          const it = cell ? data.iterations[cell.col] : undefined;
          if (t && it !== undefined) router.push(episodesHref(data.runId, it, t.id));
        }}
      />
      {hover && layout && task && iteration !== undefined ? (
        <>
          <div
            className={styles.cursor}
            style={{
              left: layout.gutter + hover.col * layout.cellW,
              top: layout.header + hover.row * layout.cellH,
              width: layout.cellW,
              height: layout.cellH,
            }}
          />
          <CellTooltip
            runId={data.runId}
            task={task}
            iteration={iteration}
            variance={cells[hovered] ?? 0}
            x={hover.x}
            y={hover.y}
          />
        </>
      ) : null}
    </div>
  );
}
