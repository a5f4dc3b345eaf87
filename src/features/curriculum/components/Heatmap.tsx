"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type MouseEvent, useEffect, useMemo, useRef, useState } from "react";
import type { Heatmap as HeatmapData } from "@/server/curriculum/heatmap";
import { decodeCells } from "@/shared/cellCodec";
import styles from "../curriculum.module.css";
import {
  CSS_GRADIENT,
  cellAt,
  type Layout,
  labelEvery,
  layoutHeatmap,
  MISSING,
  PALETTE,
  paletteIndex,
  scaleMax,
} from "../heatmapLayout";
import { CellTooltip } from "./CellTooltip";

export function episodesHref(runId: string, iteration: number, taskId: string): string {
  const q = new URLSearchParams({ run: runId, iteration: String(iteration), task: taskId });
  return `/trajectories?${q.toString()}`;
}

function draw(canvas: HTMLCanvasElement, data: HeatmapData, cells: Float64Array, l: Layout) {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.ceil(l.width * ratio);
  canvas.height = Math.ceil(l.height * ratio);
  canvas.style.width = `${l.width}px`;
  canvas.style.height = `${l.height}px`;
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, l.width, l.height);
  // Cells of tasks not in an iteration's batch: a faint grey, apart from the palette's lightest (no variance).
  ctx.fillStyle = MISSING;
  ctx.fillRect(l.gutter, l.header, l.cellW * l.cols, l.cellH * l.rows);

  const max = scaleMax(data.maxVariance);
  const gap = l.cellW >= 6 && l.cellH >= 6 ? 1 : 0;
  if (gap) {
    // Gaps between cells show white, as grid lines.
    ctx.fillStyle = "#fff";
    for (let col = 1; col <= l.cols; col++)
      ctx.fillRect(l.gutter + col * l.cellW - 1, l.header, 1, l.cellH * l.rows);
    for (let row = 1; row <= l.rows; row++)
      ctx.fillRect(l.gutter, l.header + row * l.cellH - 1, l.cellW * l.cols, 1);
  }
  const cols = l.cols;
  // Cells by colour: one fillStyle change per palette entry instead of one per cell.
  const byColour: number[][] = PALETTE.map(() => []);
  for (let i = 0; i < cells.length; i++) {
    const v = cells[i] as number;
    if (v >= 0) (byColour[paletteIndex(v, max)] as number[]).push(i);
  }
  for (let c = 0; c < byColour.length; c++) {
    const cells = byColour[c] as number[];
    if (cells.length === 0) continue;
    ctx.fillStyle = PALETTE[c] as string;
    for (const i of cells) {
      const row = Math.floor(i / cols);
      const col = i - row * cols;
      ctx.fillRect(l.gutter + col * l.cellW, l.header + row * l.cellH, l.cellW - gap, l.cellH - gap);
    }
  }

  ctx.fillStyle = "#667085";
  ctx.font = "11px system-ui, sans-serif";
  ctx.textBaseline = "middle";
  ctx.textAlign = "center";
  const every = labelEvery(l.cellW);
  data.iterations.forEach((it, col) => {
    if (col % every === 0 || col === cols - 1)
      ctx.fillText(String(it), l.gutter + (col + 0.5) * l.cellW, l.header / 2);
  });
  if (l.gutter > 0) {
    ctx.textAlign = "left";
    ctx.font = "12px system-ui, sans-serif";
    data.tasks.forEach((task, row) => {
      ctx.fillStyle = task.origin === "generated" ? "#4338ca" : "#344054";
      const text = `${task.origin === "generated" ? "↳ " : ""}${task.instruction || task.id}`;
      ctx.fillText(truncateToWidth(ctx, text, l.gutter - 12), 0, l.header + (row + 0.5) * l.cellH);
    });
  }
}

function truncateToWidth(ctx: CanvasRenderingContext2D, text: string, width: number): string {
  if (ctx.measureText(text).width <= width) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ctx.measureText(`${text.slice(0, mid)}…`).width <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo)}…`;
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
    draw(el, data, cells, layout);
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

export function HeatmapLegend({ maxVariance }: { maxVariance: number }) {
  return (
    <div className={styles.legend}>
      <span>variance 0</span>
      <span className={styles.legendBar} style={{ background: CSS_GRADIENT }} />
      <span>{scaleMax(maxVariance).toFixed(2)}</span>
      <span className={styles.legendMissing} />
      <span>not in the batch</span>
    </div>
  );
}

export function HeatmapEmpty({ runId }: { runId: string }) {
  return (
    <div className={styles.empty}>
      No per-task statistics yet: they appear as the run finishes iterations.{" "}
      <Link href={`/runs/${runId}`}>Watch the run</Link>
    </div>
  );
}
