import { expect, type Page, test } from "@playwright/test";

const RUN = "retention: shop DreamGym GRPO, to delete";
const IMPORT = "retention-e2e.jsonl";

/** The confirmation is the browser's modal <dialog>: Cancel has the focus, so a stray Enter deletes nothing. */
async function openDialog(page: Page, opener: () => Promise<void>, title: string) {
  await opener();
  const dialog = page.getByRole("dialog", { name: title });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  return dialog;
}

test("a researcher deletes a finished run through the confirmation dialog, after cancelling once; it is gone from the runs list", async ({
  page,
}) => {
  // The worker runs one job at a time: the seeded demo run and teacher job (and other journeys' jobs) go first.
  test.setTimeout(12 * 60_000);
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));

  await page.goto("/runs/new");
  await page.getByLabel("Preset").selectOption("shop-dreamgym-grpo-quick");
  await page.getByLabel("Name").fill(RUN);
  await page.getByLabel("Iterations").fill("1");
  await page.getByLabel("Tasks per batch").fill("2");
  await page.getByLabel("Group size").fill("2");
  await page.getByLabel("Eval interval").fill("1");
  await page.getByLabel("Eval episodes").fill("4");
  await page.getByRole("button", { name: "Launch run" }).click();
  // Launching opens the new run's page.
  await expect(page).toHaveURL(/\/runs\/(?!new$)[^/?]+$/);
  const runId = new URL(page.url()).pathname.split("/").pop() ?? "";
  expect(runId).not.toBe("");

  // While the run is queued or running there is nothing to delete (the server would say "cancel it first").
  await expect(page.getByRole("button", { name: "Delete run" })).toHaveCount(0);
  await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 10 * 60_000 });

  const open = () => page.getByRole("button", { name: "Delete run" }).click();
  let dialog = await openDialog(page, open, "Delete run?");
  const summary = dialog.getByTestId("delete-summary");
  await expect(summary).toHaveText(
    new RegExp(
      `^Delete run ${RUN.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: [1-9][\\d,]* trajectories, [1-9][\\d,]* steps, [1-9]\\d* metrics?\\. This cannot be undone\\.$`,
    ),
  );
  await expect(dialog).toContainText("and its steps' rows in the replay buffer");
  await page.screenshot({ path: "test-results/retention-delete-run-dialog.png" });

  // Escape cancels; so does Cancel. The run is still there either way.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  dialog = await openDialog(page, open, "Delete run?");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("run-status")).toHaveText("succeeded");

  dialog = await openDialog(page, open, "Delete run?");
  await expect(dialog.getByTestId("delete-summary")).toBeVisible();
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page).toHaveURL(/\/runs$/);
  await expect(page.getByRole("table", { name: "Runs" })).toBeVisible();
  await expect(page.locator(`[data-run-id="${runId}"]`)).toHaveCount(0);
  await expect(page.getByTestId("run-row").filter({ hasText: RUN })).toHaveCount(0);

  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("not-found")).toContainText("Run not found");
  await page.goto(`/trajectories?run=${runId}`);
  await expect(page.getByTestId("trajectory-count")).toHaveText("0 trajectories");
  expect(pageErrors).toEqual([]);
});

test("an import is deleted from the jobs page the same way, and its trajectories are gone from the explorer", async ({
  page,
}) => {
  const lines = ["Open the retention page", "Open the archive page"].map((instruction, i) =>
    JSON.stringify({
      domain: "retention",
      instruction,
      steps: Array.from({ length: i + 1 }, (_, s) => ({
        state: `[Page] ${instruction} ${s}`,
        action: `click[Next ${s}]`,
        next_state: `[Page] ${instruction} ${s + 1}`,
        reward: s === i ? 1 : 0,
        done: s === i,
      })),
    }),
  );
  await page.goto("/jobs");
  await page.getByLabel("Trajectory file").setInputFiles({
    name: IMPORT,
    mimeType: "application/jsonl",
    buffer: Buffer.from(`${lines.join("\n")}\n`),
  });
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByTestId("import-notice")).toHaveText("Queued an import of 2 trajectories.");
  const row = page.getByTestId("import-row").filter({ hasText: IMPORT });
  // The worker imports it (after whatever it is busy with); the list follows by itself.
  await expect(row).toContainText("retention", { timeout: 5 * 60_000 });
  await expect(row.locator("td").nth(2)).toHaveText("2");
  await expect(row.locator("td").nth(3)).toHaveText("3");
  await page.goto("/trajectories?domain=retention");
  await expect(page.getByTestId("trajectory-count")).toHaveText("2 trajectories");

  await page.goto("/jobs");
  const open = () => page.getByRole("button", { name: `Delete import ${IMPORT}` }).click();
  let dialog = await openDialog(page, open, "Delete import?");
  await expect(dialog.getByTestId("delete-summary")).toHaveText(
    `Delete import ${IMPORT}: 2 trajectories, 3 steps, 0 annotations. This cannot be undone.`,
  );
  await expect(dialog).toContainText("2 imported tasks");
  await page.screenshot({ path: "test-results/retention-delete-import-dialog.png" });
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  dialog = await openDialog(page, open, "Delete import?");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("import-row").filter({ hasText: IMPORT })).toHaveCount(1);

  dialog = await openDialog(page, open, "Delete import?");
  await expect(dialog.getByTestId("delete-summary")).toBeVisible();
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("imports-notice")).toHaveText(
    `Deleted import ${IMPORT}: 2 trajectories, 3 steps.`,
  );
  await expect(page.getByTestId("import-row").filter({ hasText: IMPORT })).toHaveCount(0);
  // The demo's own import is untouched.
  await expect(
    page.getByTestId("import-row").filter({ hasText: "samples/web-navigation.jsonl" }),
  ).toHaveCount(1);

  await page.goto("/trajectories?domain=retention");
  await expect(page.getByTestId("trajectory-count")).toHaveText("0 trajectories");
});
