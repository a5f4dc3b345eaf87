import { expect, test } from "@playwright/test";
import { ACTIVE_STATUSES } from "@/shared/enums";
import { expectLabelsApart } from "./support/charts";

const STILL_ACTIVE = new RegExp(ACTIVE_STATUSES.join("|"));
const DEMO = "demo: shop DreamGym GRPO";
const S2R = "pm: shop DreamGym-S2R GRPO, 40 real transitions";

test("a PM's DreamGym-S2R run counts its iterations without a planned total, shows the real budget spent, and ends its curves with the final evaluation", async ({
  page,
}) => {
  // The seeded demo run and teacher job go first (the worker runs one job at a time), then this one.
  test.setTimeout(12 * 60_000);
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.goto("/runs/new");
  await page.getByLabel("Preset").selectOption("shop-dreamgym-s2r-grpo-quick");
  await page.getByLabel("Name").fill(S2R);
  await page.getByLabel("Iterations").fill("2");
  await page.getByLabel("Tasks per batch").fill("2");
  await page.getByLabel("Group size").fill("2");
  await page.getByLabel("Real transitions budget").fill("40");
  await page.getByLabel("Eval interval").fill("1");
  await page.getByLabel("Eval episodes").fill("10");
  await page.getByRole("button", { name: "Launch run" }).click();
  // Launching opens the new run's page.
  await expect(page).toHaveURL(/\/runs\/(?!new$)[^/?]+$/);
  const runId = new URL(page.url()).pathname.split("/").pop() ?? "";
  expect(runId).not.toBe("");

  const status = page.getByTestId("run-status");
  const iterations = page.getByTestId("run-iteration");
  const bar = page.getByTestId("run-progress-bar");
  const deadline = Date.now() + 10 * 60_000;
  while (Date.now() < deadline) {
    const now = (await status.textContent()) ?? "";
    if (now === "succeeded") break;
    expect(now).toMatch(STILL_ACTIVE);
    // A real budget decides when S2R stops: no "of N", and the bar never passes its end.
    await expect(iterations).toHaveText(/^\d+ iterations?$/);
    const width = Number((await bar.getAttribute("style"))?.match(/width: (\d+)%/)?.[1]);
    expect(width).toBeLessThanOrEqual(100);
    await page.waitForTimeout(500);
  }
  await expect(status).toHaveText("succeeded");
  // Two synthetic iterations, then real ones until 40 real transitions are spent.
  const done = Number(((await iterations.textContent()) ?? "").match(/^(\d+) iterations$/)?.[1]);
  expect(done).toBeGreaterThan(2);
  await expect(bar).toHaveAttribute("style", /width: 100%/);
  await expect(page.getByTestId("run-budget")).toHaveText(/^\d[\d,]* \/ 40 real transitions$/);

  // The header's final figure is the real-env curve's last point, at the last iteration, marked "final".
  const header = ((await page.getByTestId("run-final-success").textContent()) ?? "").split(" ")[0];
  expect(header).toMatch(/%$/);
  const finalPoint = page
    .getByTestId("success-chart")
    .locator('[data-testid="final-point"][data-series="realSuccess"]');
  await expect(finalPoint).toHaveCount(1);
  await expect(finalPoint).toHaveAttribute("data-iteration", String(done));
  const success = page.getByTestId("success-chart");
  await expect(success.locator('[data-testid="final-label"][data-series="realSuccess"]')).toHaveText(
    `final ${header}`,
  );
  // S2R's real and synthetic-env finals and the untrained line end close together: their labels stay apart.
  await expectLabelsApart(success, 3);
  // A real phase spends real transitions: on that axis the final still ends the real-env curve.
  await page.getByLabel("X axis").selectOption("transitions");
  await expect(success.locator('[data-testid="final-point"][data-series="realSuccess"]')).toHaveCount(1);
  await expectLabelsApart(success, 3);
  await page.getByLabel("X axis").selectOption("iteration");
  await page.screenshot({ path: "test-results/run-detail-s2r.png", fullPage: true });

  // The runs list: the same count, the budget, and a table that fits the window.
  await page.goto("/runs");
  const row = page.locator(`[data-run-id="${runId}"]`);
  await expect(row.getByTestId("run-progress")).toHaveText(`${done} iterations`);
  await expect(row.getByTestId("run-budget")).toHaveText(/^\d[\d,]* \/ 40 real transitions$/);
  await expect(row.getByTestId("run-final")).toHaveText(header ?? "");
  const table = page.getByRole("table", { name: "Runs" });
  const fits = await table.evaluate((t) => ({
    table: t.scrollWidth,
    container: t.parentElement!.clientWidth,
  }));
  expect(fits.table).toBeLessThanOrEqual(fits.container);
  await page.screenshot({ path: "test-results/runs-list.png" });

  // Compared with the demo run: each line ends with its run's final evaluation, as the table says.
  const demo = page.getByTestId("run-row").filter({ hasText: DEMO });
  await expect(demo.getByTestId("run-status")).toHaveText("succeeded");
  await page.getByLabel(`Select ${S2R}`).check();
  await page.getByLabel(`Select ${DEMO}`).check();
  await page.getByRole("button", { name: "Compare selected (2)" }).click();
  await expect(page.getByTestId("compared-run")).toHaveCount(2);
  await expect(page.getByTestId("compared-iterations").nth(0)).toHaveText(`${done} iterations`);
  await expect(page.getByTestId("compared-iterations").nth(1)).toHaveText("4 of 4 iterations");
  await expect(page.getByTestId("compared-budget")).toHaveCount(1);
  const real = page.getByTestId("compare-real");
  for (const i of [0, 1]) {
    const figure = await page.getByTestId("compared-final").nth(i).textContent();
    await expect(real.locator(`[data-testid="final-label"][data-series="r${i}"]`)).toHaveText(
      `final ${figure}`,
    );
  }
  await expectLabelsApart(real, 2);
  // The S2R run has a real budget the demo run has not: the diff names it.
  await expect(page.getByTestId("config-diff").locator('[data-key="method"] td')).toHaveText([
    "dreamgym-s2r",
    "dreamgym",
  ]);
  await expect(real.locator('[data-testid="final-point"][data-series="r0"]')).toHaveAttribute(
    "data-iteration",
    String(done),
  );
  await page.screenshot({ path: "test-results/compare-s2r.png", fullPage: true });
});
