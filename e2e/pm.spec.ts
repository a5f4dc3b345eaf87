import { expect, type Page, test } from "@playwright/test";
import { ACTIVE_STATUSES } from "@/shared/enums";
import { screenshotPath } from "./support/screenshots";

/** The status badge of a run that has not finished yet, whichever of the active statuses it shows. */
const STILL_ACTIVE = new RegExp(ACTIVE_STATUSES.join("|"));

const DEMO = "demo: shop DreamGym GRPO";
const NAME = "pm: shop DreamGym GRPO, 3 iterations";

async function metricRows(page: Page): Promise<number> {
  return page.getByTestId("metric-row").count();
}

test("a PM launches a short run from a preset, watches its curves grow, compares it and drills into the curriculum", async ({
  page,
}) => {
  // The seeded demo run and teacher job go first (the worker runs one job at a time), then ours.
  test.setTimeout(12 * 60_000);

  await page.goto("/runs");
  const rows = page.getByTestId("run-row");
  await expect(rows.filter({ hasText: DEMO })).toHaveCount(1);
  const before = await rows.count();

  await page.getByRole("link", { name: "New run" }).click();
  await expect(page).toHaveURL(/\/runs\/new$/);
  await page.getByLabel("Preset").selectOption("shop-dreamgym-grpo-quick");
  await expect(page.getByLabel("Iterations")).toHaveValue("10");
  await page.getByLabel("Name").fill(NAME);
  await page.getByLabel("Iterations").fill("3");
  await page.getByLabel("Tasks per batch").fill("4");
  await page.getByLabel("Eval interval").fill("1");
  await page.getByLabel("Eval episodes").fill("10");

  await page.screenshot({ path: screenshotPath("launch-form.png"), fullPage: true });

  // A group of one has no variance to learn from, and a blank is no number: the form says so beside each field,
  // in plain words, and launches nothing.
  await page.getByLabel("Group size").fill("1");
  await page.getByLabel("Tasks per batch").fill("");
  await page.getByRole("button", { name: "Launch run" }).click();
  await expect(page.getByTestId("field-error-groupSize")).toHaveText("At least 2");
  await expect(page.getByTestId("field-error-tasksPerBatch")).toHaveText("Enter a number");
  await expect(page.getByTestId("form-problems")).toHaveText("2 settings need fixing");
  await expect(page).toHaveURL(/\/runs\/new$/);

  await page.getByLabel("Group size").fill("4");
  await page.getByLabel("Tasks per batch").fill("4");
  await expect(page.getByTestId("field-error-groupSize")).toHaveCount(0);
  await expect(page.getByTestId("field-error-tasksPerBatch")).toHaveCount(0);
  await page.getByRole("button", { name: "Launch run" }).click();
  // Launching opens the new run's page.
  await expect(page).toHaveURL(/\/runs\/(?!new$)[^/?]+$/);
  const runId = new URL(page.url()).pathname.split("/").pop() ?? "";
  expect(runId).not.toBe("");
  await page.goto("/runs");
  // Exactly one run was launched: the refused submit wrote nothing.
  await expect(rows).toHaveCount(before + 1);
  const row = page.locator(`[data-run-id="${runId}"]`);
  await expect(row).toContainText(NAME);
  await expect(row.getByTestId("run-status")).toHaveText(STILL_ACTIVE);

  await row.getByRole("link", { name: NAME }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}$`));
  await expect(page.getByTestId("run-config")).toContainText(/Group size\s*4/);
  // The config panel lists what the method read: GRPO's KL β, not PPO's GAE λ.
  await expect(page.getByTestId("run-config")).toContainText("KL β");
  await expect(page.getByTestId("run-config")).not.toContainText("GAE λ");

  // Watch the curve grow while the worker runs it: the metric rows and plotted points only ever increase.
  const seen: number[] = [];
  const status = page.getByTestId("run-status");
  const deadline = Date.now() + 10 * 60_000;
  while (Date.now() < deadline) {
    const n = await metricRows(page);
    if (seen.at(-1) !== n) seen.push(n);
    // One read per turn: the run may finish between two reads.
    const now = (await status.textContent()) ?? "";
    if (now === "succeeded") break;
    expect(now).toMatch(STILL_ACTIVE);
    await page.waitForTimeout(250);
  }
  await expect(status).toHaveText("succeeded");
  await expect(page.getByTestId("metric-row")).toHaveCount(3);
  seen.push(await metricRows(page));
  const distinct = [...new Set(seen)];
  expect(distinct).toEqual([...distinct].sort((a, b) => a - b));
  expect(distinct.length).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId("success-chart")).toHaveAttribute("data-points", "3");
  // Evaluated every iteration: three points of the synthetic rollouts, three of the test tasks in the real
  // environment and three of the same tasks in the synthetic one (the sim-to-real gap's two sides).
  await expect(page.getByTestId("success-chart").locator(".recharts-line-dots circle")).toHaveCount(9);
  await expect(page.getByTestId("gap-chart")).toHaveAttribute("data-points", "3");
  await expect(page.getByTestId("run-final-gap")).toContainText(/^[+−]\d+\.\d pts/);
  await expect(page.getByTestId("run-final-success")).toContainText("%");
  await expect(page.getByTestId("run-iteration")).toHaveText("3 of 3 iterations");
  await expect(page.getByTestId("run-progress-bar")).toHaveAttribute("style", /width: 100%/);
  // The final evaluation is the real-env curve's last point, at the last iteration, and reads as the header does.
  const finalFigure = ((await page.getByTestId("run-final-success").textContent()) ?? "").split(" ")[0];
  const finalPoint = page
    .getByTestId("success-chart")
    .locator('[data-testid="final-point"][data-series="realSuccess"]');
  await expect(finalPoint).toHaveCount(1);
  await expect(finalPoint).toHaveAttribute("data-iteration", "3");
  await expect(finalPoint.getByTestId("final-label")).toHaveText(`final ${finalFigure}`);
  await expect(page.getByTestId("success-chart").getByTestId("legend-final")).toHaveText("final evaluation");
  await page.screenshot({ path: screenshotPath("run-detail.png"), fullPage: true });

  // Against the seeded demo run, on one chart.
  await page.getByRole("link", { name: "Runs", exact: true }).click();
  await expect(page).toHaveURL(/\/runs$/);
  await expect(rows.filter({ hasText: DEMO }).getByTestId("run-status")).toHaveText("succeeded");
  // The runs table fits a 1440 px window, with nothing to scroll sideways.
  const table = page.getByRole("table", { name: "Runs" });
  const fits = await table.evaluate((t) => ({
    table: t.scrollWidth,
    container: t.parentElement!.clientWidth,
  }));
  expect(fits.table).toBeLessThanOrEqual(fits.container);
  await expect(rows.filter({ hasText: NAME }).getByTestId("run-progress")).toHaveText("3 of 3 iterations");
  await page.getByLabel(`Select ${NAME}`).check();
  await page.getByLabel(`Select ${DEMO}`).check();
  await page.screenshot({ path: screenshotPath("runs.png") });
  await page.getByRole("button", { name: "Compare selected (2)" }).click();
  await expect(page).toHaveURL(/\/runs\/compare\?ids=/);
  await expect(page.getByTestId("compared-run")).toHaveCount(2);
  const real = page.getByTestId("compare-real");
  const legend = real.getByTestId("legend-item");
  await expect(legend).toHaveCount(2);
  await expect(legend.nth(0)).toContainText(NAME);
  await expect(legend.nth(1)).toContainText(DEMO);
  const curves = real.locator(".recharts-line-curve");
  await expect(curves).toHaveCount(2);
  await expect(page.getByTestId("compare-synthetic").locator(".recharts-line-curve")).toHaveCount(2);
  // Lines that coincide stay apart: each run has its own dash pattern and marker, and the legend shows them.
  const dashes = [
    await curves.nth(0).getAttribute("stroke-dasharray"),
    await curves.nth(1).getAttribute("stroke-dasharray"),
  ];
  expect(dashes[0]).not.toBe(dashes[1]);
  for (const i of [0, 1]) {
    const shown = await legend.nth(i).locator("line").getAttribute("stroke-dasharray");
    expect(shown, `legend ${i}`).toBe(dashes[i]);
  }
  expect(await legend.nth(0).getAttribute("data-shape")).not.toBe(
    await legend.nth(1).getAttribute("data-shape"),
  );
  // Each finished run's final evaluation ends its line, as the table's final figure says.
  const finals = real.getByTestId("final-label");
  await expect(finals).toHaveCount(2);
  for (const i of [0, 1]) {
    const figure = await page.getByTestId("compared-final").nth(i).textContent();
    await expect(real.locator(`[data-testid="final-point"][data-series="r${i}"]`)).toContainText(
      `final ${figure}`,
    );
  }
  await page.screenshot({ path: "test-results/compare.png", fullPage: true });

  // The curriculum: from the run's page to its heatmap, one cell to that task's episodes of that iteration.
  await page.getByRole("link", { name: NAME }).click();
  await page.getByRole("link", { name: "Curriculum heatmap" }).click();
  await expect(page).toHaveURL(new RegExp(`/curriculum\\?run=${runId}$`));
  const heatmap = page.getByTestId("heatmap");
  await expect(heatmap).toHaveAttribute("data-drawn", "true");
  await expect(heatmap).toHaveAttribute("data-cols", "3");
  await expect(page.getByTestId("lineage-node").first()).toBeVisible();

  const box = await heatmap.boundingBox();
  if (!box) throw new Error("heatmap has no box");
  const attr = async (name: string) => Number(await heatmap.getAttribute(name));
  const [cellW, cellH, gutter, header] = [
    await attr("data-cell-w"),
    await attr("data-cell-h"),
    await attr("data-gutter"),
    await attr("data-header"),
  ];
  // The top row is the task with the highest mean variance; hover along it to a cell it has statistics for.
  const tooltip = page.getByTestId("heatmap-tooltip");
  let target: { x: number; y: number } | undefined;
  for (let col = 0; col < 3 && !target; col++) {
    const point = { x: box.x + gutter + (col + 0.5) * cellW, y: box.y + header + 0.5 * cellH };
    await page.mouse.move(point.x, point.y);
    if (await tooltip.isVisible()) target = point;
  }
  if (!target) throw new Error("no cell with statistics in the top row");
  await expect(tooltip).toContainText("reward variance");
  await expect(tooltip).toContainText(/rollouts\s*4/);
  await page.screenshot({ path: screenshotPath("curriculum.png"), fullPage: true });
  await page.mouse.click(target.x, target.y);
  await expect(page).toHaveURL(new RegExp(`/trajectories\\?run=${runId}&iteration=[1-3]&task=[^&]+$`));
});
