import { expect, type Page, test } from "@playwright/test";
import { ACTIVE_STATUSES } from "@/shared/enums";
import { downloadCsv, dragAcross, expectLabelsApart } from "./support/charts";
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
  const success = page.getByTestId("success-chart");
  await expect(success.locator('[data-testid="final-label"][data-series="realSuccess"]')).toHaveText(
    `final ${finalFigure}`,
  );
  await expect(success.getByTestId("legend-final")).toHaveText("final evaluation");
  // The finals of the real and the synthetic env and the untrained line's label: apart, and off the lines.
  await expectLabelsApart(success, 3);
  await expectLabelsApart(page.getByTestId("gap-chart"));
  await page.screenshot({ path: screenshotPath("run-detail.png"), fullPage: true });

  // What TensorBoard shows beside the returns: the update's loss, KL, entropy and clip fraction per iteration.
  for (const chart of ["loss-chart", "kl-chart", "entropy-chart", "clip-chart"])
    await expect(page.getByTestId(chart), chart).toHaveAttribute("data-points", "3");
  await expect(page.getByTestId("kl-chart").getByTestId("legend-item")).toContainText([
    "approx KL (old → new)",
    "KL to reference",
  ]);

  // Against transitions spent, then wall-clock time: the same points, the final still marked, kept in the URL.
  const xAxis = page.getByLabel("X axis");
  await xAxis.selectOption({ label: "Transitions (real + synthetic)" });
  await expect(page).toHaveURL(/[?&]x=transitions/);
  await expect(success).toHaveAttribute("data-points", "3");
  await expect(success.locator('[data-testid="final-point"][data-series="realSuccess"]')).toHaveCount(1);
  await expectLabelsApart(success, 3);
  await xAxis.selectOption({ label: "Wall-clock time" });
  await expect(page).toHaveURL(/[?&]x=time/);
  await expect(success.locator(".recharts-xAxis-tick-labels text").last()).toHaveText(/\d+s$/);
  await page.reload();
  await expect(page.getByLabel("X axis")).toHaveValue("time");
  await xAxis.selectOption({ label: "Iteration" });

  // Smoothed as TensorBoard smooths: the average drawn over the raw line, which stays faint behind it.
  const reward = page.getByTestId("reward-chart");
  await page.getByLabel("Smoothing weight").fill("0.6");
  await expect(page).toHaveURL(/smooth=0.6/);
  await expect(reward).toHaveAttribute("data-smoothed", "true");
  await expect(reward.locator(".smoothed-line .recharts-line-curve")).toHaveCount(1);
  await expect(reward.locator(".recharts-line-curve")).toHaveCount(2);
  await page.getByLabel("Smoothing weight").fill("0");
  await expect(reward).toHaveAttribute("data-smoothed", "false");

  // Zoom: drag across a chart, every chart follows, and a reset shows everything again.
  await dragAcross(page, reward, 0.3, 0.98);
  await expect(page.getByTestId("zoom-range")).toBeVisible();
  await expect(reward).toHaveAttribute("data-zoom", /^\d+(\.\d+)?-\d+(\.\d+)?$/);
  await expect(page.getByTestId("loss-chart")).toHaveAttribute("data-zoom", /.+/);
  await page.getByRole("button", { name: "Reset zoom" }).click();
  await expect(reward).not.toHaveAttribute("data-zoom", /.+/);

  // A log scale for the KL, which spans decades; the switch is per chart.
  await page.getByRole("button", { name: "Log scale: KL" }).click();
  await expect(page.getByTestId("kl-chart")).toHaveAttribute("data-scale", "log");
  await expect(page.getByTestId("loss-chart")).toHaveAttribute("data-scale", "linear");
  await page.screenshot({ path: "test-results/run-charts-controls.png", fullPage: true });

  // The metrics as a CSV: a header, then one line per iteration.
  const csv = await downloadCsv(page);
  expect(csv.name).toBe("dreamgym-pm-shop-dreamgym-grpo-3-iterations-metrics.csv");
  expect(csv.rows[0]?.slice(0, 4)).toEqual(["run_id", "run_name", "iteration", "wall_clock_s"]);
  expect(csv.rows[0]).toContain("update.approxKl");
  expect(csv.rows.slice(1).map((r) => r[2])).toEqual(["1", "2", "3"]);
  expect(csv.rows[1]?.[1]).toBe(NAME);

  // Notes and a tag, as a PM keeps track of what each run was for.
  await page.getByLabel("New tag").fill("pm-review");
  await page.getByRole("button", { name: "Add tag" }).click();
  await expect(page.getByTestId("run-tag")).toHaveText(["pm-review"]);
  await page.getByLabel("Run notes").fill("Short check of the quick preset, before the full 10 iterations.");
  await page.getByRole("button", { name: "Save notes" }).click();
  await expect(page.getByTestId("notes-state")).toHaveText("Saved");
  await page.reload();
  await expect(page.getByLabel("Run notes")).toHaveValue(
    "Short check of the quick preset, before the full 10 iterations.",
  );
  await expect(page.getByTestId("run-tag")).toHaveText(["pm-review"]);

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
  await expect(rows.filter({ hasText: NAME }).getByTestId("run-tag")).toHaveText("pm-review");

  // Found again by a word of its notes, by its tag, and with the filters kept in the URL.
  const count = page.getByTestId("runs-count");
  await page.getByLabel("Search runs").fill("quick preset");
  await expect(page).toHaveURL(/q=quick\+preset/);
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(NAME);
  // Another journey's run may still be going: the count then says " · live".
  await expect(count).toHaveText(/^1 of \d+ runs( · live)?$/);
  await page.getByLabel("Search runs").fill("");
  await page.getByLabel("Tag", { exact: true }).selectOption("pm-review");
  await page.getByLabel("Status", { exact: true }).selectOption("succeeded");
  await expect(rows).toHaveCount(1);
  await page.reload();
  await expect(page.getByLabel("Tag", { exact: true })).toHaveValue("pm-review");
  await expect(rows).toHaveCount(1);
  await page.getByRole("button", { name: "Clear" }).click();
  await expect(rows).toHaveCount(before + 1);
  await page.getByLabel("Sort").selectOption({ label: "Name A–Z" });
  await expect(page).toHaveURL(/sort=name/);
  const names = await rows.getByTestId("run-name").allTextContents();
  expect(names).toEqual(
    [...names].sort((a, b) => a.localeCompare(b, "en", { numeric: true, sensitivity: "base" })),
  );
  await page.getByLabel("Sort").selectOption({ label: "Newest first" });
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
    await expect(real.locator(`[data-testid="final-label"][data-series="r${i}"]`)).toHaveText(
      `final ${figure}`,
    );
  }
  // Two finals close together are labelled apart, beside the plot, never over each other or the lines.
  await expectLabelsApart(real, 2);

  // Beside the charts: the settings on which the two runs differ, and only those.
  const diff = page.getByTestId("config-diff");
  await expect(diff.locator('[data-key="name"]')).toContainText(NAME);
  await expect(diff.locator('[data-key="iterations"] td')).toHaveText(["3", "4"]);
  await expect(diff.locator('[data-key="method"]')).toHaveCount(0);
  await expect(diff.locator('[data-key="domain"]')).toHaveCount(0);
  const diffBox = await diff.boundingBox();
  const realBox = await real.boundingBox();
  expect(
    diffBox && realBox && diffBox.x > realBox.x + realBox.width - 1,
    "the diff sits beside the charts",
  ).toBe(true);
  // The training figures of both runs on shared axes, and one CSV of both runs' metrics.
  await expect(page.getByTestId("compare-approxKl").locator(".recharts-line-curve")).toHaveCount(2);
  const both = await downloadCsv(page);
  expect(both.name).toBe("dreamgym-compare-2-runs-metrics.csv");
  expect(both.rows[0]?.slice(0, 3)).toEqual(["run_id", "run_name", "iteration"]);
  expect(new Set(both.rows.slice(1).map((r) => r[1]))).toEqual(new Set([NAME, DEMO]));
  expect(both.rows.length - 1).toBe(3 + 4);
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
