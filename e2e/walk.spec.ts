import { expect, test } from "@playwright/test";
import { authFile } from "./support/auth";

/** The small things a walk through every screen found, each checked as a person meets it. */
test.describe("a researcher's small things", () => {
  test("?step=1 opens the first step, and the URL keeps counting from 1", async ({ page }) => {
    await page.goto("/trajectories");
    const episode = await page
      .getByRole("table", { name: "Trajectories" })
      .getByRole("link")
      .first()
      .getAttribute("href");
    const path = (episode ?? "").split("?")[0];
    await page.goto(`${path}?step=1`);
    await expect(page.getByTestId("step-position")).toHaveText(/^Step 1 of \d+$/);
    await page.keyboard.press("ArrowRight");
    await expect(page.getByTestId("step-position")).toHaveText(/^Step 2 of \d+$/);
    await expect(page).toHaveURL(/step=2/);
  });

  test("an unknown run on the curriculum page says so at once, with the way back", async ({ page }) => {
    const started = Date.now();
    await page.goto("/curriculum?run=bogus");
    await expect(page.getByTestId("not-found")).toContainText("Run not found", { timeout: 3_000 });
    expect(Date.now() - started).toBeLessThan(3_000);
    await expect(page.getByTestId("not-found")).toContainText('No run has the id "bogus"');
    await page.getByRole("link", { name: "Curriculum of the latest run" }).click();
    await expect(page).toHaveURL(/\/curriculum\?run=(?!bogus)/);
  });

  test("the trajectory list names each episode's run", async ({ page }) => {
    // The seeded demo run's episodes appear once the worker has stored its first iteration.
    test.setTimeout(5 * 60_000);
    await page.goto("/trajectories?source=synthetic");
    const run = page.getByTestId("trajectory-run").first();
    await expect(async () => {
      await page.reload();
      await expect(run).toBeVisible({ timeout: 3_000 });
    }).toPass({ timeout: 4 * 60_000 });
    await expect(run).toContainText(/^.+ · iter \d+/);
    const name = (await run.getByRole("link").textContent()) ?? "";
    expect(name).not.toMatch(/^iter/);
    await run.getByRole("link").click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  });

  test("config values never break mid-word", async ({ page }) => {
    await page.goto("/runs");
    await page.getByTestId("run-row").first().getByRole("link").first().click();
    const values = page.getByTestId("run-config").locator("dd");
    await expect(values.first()).toBeVisible();
    for (const width of [1440, 1100, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const broken = await values.evaluateAll((dds) =>
        dds
          .filter((dd) => !/\s/.test(dd.textContent ?? "") && (dd.textContent ?? "").length <= 12)
          .filter(
            (dd) =>
              dd.getClientRects().length > 0 &&
              dd.getBoundingClientRect().height >
                1.6 * Number.parseFloat(getComputedStyle(dd).lineHeight || "16"),
          )
          .map((dd) => dd.textContent),
      );
      expect(broken, `at ${width} px`).toEqual([]);
    }
  });

  test("launching opens the new run, which says what its job is doing before its first iteration", async ({
    page,
  }) => {
    await page.goto("/runs/new");
    await page.getByLabel("Preset").selectOption("shop-dreamgym-grpo-quick");
    await page.getByLabel("Name").fill("walk: starting");
    await page.getByLabel("Iterations").fill("1");
    await page.getByRole("button", { name: "Launch run" }).click();
    await expect(page).toHaveURL(/\/runs\/(?!new$)[^/?]+$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("walk: starting");
    // Not "0 of 1" and empty charts alone: queued behind other jobs, or the worker's words while it sets up.
    await expect(page.getByTestId("run-starting-message")).toHaveText(
      /^Queued: (next for a worker|\d+ jobs? ahead of it)|setting up|scoring the untrained policy|took the run/,
    );
    // Stopped here: the other journeys need the worker.
    await page.getByRole("button", { name: "Cancel", exact: true }).click();
    await expect(page.getByTestId("run-starting")).toHaveCount(0, { timeout: 60_000 });
  });

  test("the app has an icon", async ({ page }) => {
    const icon = await page.request.get("/favicon.ico");
    expect(icon.status()).toBe(200);
    expect(icon.headers()["content-type"]).toContain("image");
  });
});

test.describe("each role's own start", () => {
  test("an annotator signing in lands on the annotation queue", async ({ browser, baseURL }) => {
    const context = await browser.newContext({
      baseURL: baseURL ?? "",
      storageState: { cookies: [], origins: [] },
    });
    const page = await context.newPage();
    await page.goto("/");
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.getByLabel("Email").fill("annotator@demo.local");
    await page.getByLabel("Password").fill("dreamgym-demo");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/annotations/);
    await context.close();
  });

  test.describe("a viewer", () => {
    test.use({ storageState: authFile("viewer") });
    test("sees no inputs on the Jobs page that they could not use", async ({ page }) => {
      await page.goto("/jobs");
      await expect(page.getByTestId("buffer-stats")).toBeVisible();
      await expect(page.getByLabel("Teacher traces")).toHaveCount(0);
      await expect(page.getByLabel("Teacher domain")).toHaveCount(0);
      await expect(page.getByLabel("Trajectory file")).toHaveCount(0);
      await expect(page.locator("main input, main select")).toHaveCount(0);
    });
  });
});
