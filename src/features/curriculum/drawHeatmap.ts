import type { Heatmap as HeatmapData } from "@/server/curriculum/heatmap";
import { type Layout, labelEvery, MISSING, PALETTE, paletteIndex, scaleMax } from "./heatmapLayout";

/** Paints the heatmap on its canvas at the screen's pixel ratio: cells by colour, iteration and task labels. */
export function drawHeatmap(canvas: HTMLCanvasElement, data: HeatmapData, cells: Float64Array, l: Layout) {
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
