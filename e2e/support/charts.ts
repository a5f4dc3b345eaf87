import fs from "node:fs";
import { expect, type Locator, type Page } from "@playwright/test";

import { parseCsv } from "./csv";

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * A chart's end-of-line labels ("final 43.0%", "untrained 12.0%") as drawn: none covers another, and all sit
 * right of the plotting area, where no line runs.
 */
export async function expectLabelsApart(chart: Locator, atLeast = 1): Promise<void> {
  const texts = chart.locator('[data-testid="final-label"] text, [data-testid="reference-label"] text');
  expect(await texts.count()).toBeGreaterThanOrEqual(atLeast);
  const grid = await chart.locator(".recharts-cartesian-grid").boundingBox();
  if (!grid) throw new Error("the chart has no grid");
  const boxes: Box[] = [];
  for (let i = 0; i < (await texts.count()); i++) {
    const box = await texts.nth(i).boundingBox();
    if (!box) throw new Error(`label ${i} is not drawn`);
    expect(box.x, `label ${i} starts right of the plot`).toBeGreaterThanOrEqual(grid.x + grid.width);
    boxes.push(box);
  }
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++)
      expect(intersects(boxes[i] as Box, boxes[j] as Box), `labels ${i} and ${j} overlap`).toBe(false);
}

/** Drags across a chart's plotting area, from `from` to `to` of its width, as a person selects a range. */
export async function dragAcross(page: Page, chart: Locator, from = 0.2, to = 0.9): Promise<void> {
  // The mouse only reaches what is on screen.
  await chart.scrollIntoViewIfNeeded();
  const grid = await chart.locator(".recharts-cartesian-grid").boundingBox();
  if (!grid) throw new Error("the chart has no grid");
  const y = grid.y + grid.height / 2;
  await page.mouse.move(grid.x + grid.width * from, y);
  await page.mouse.down();
  for (let k = 1; k <= 8; k++) await page.mouse.move(grid.x + grid.width * (from + ((to - from) * k) / 8), y);
  await page.mouse.up();
}

/** Clicks "Download CSV" and reads the file it saves. */
export async function downloadCsv(page: Page): Promise<{ name: string; rows: string[][] }> {
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download CSV" }).click();
  const download = await downloading;
  const text = fs.readFileSync((await download.path()) ?? "", "utf8");
  return { name: download.suggestedFilename(), rows: parseCsv(text) };
}
