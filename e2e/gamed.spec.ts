import { expect, type Page, test } from "@playwright/test";
import { screenshotPath } from "./support/screenshots";

const DEMO = "demo: shop DreamGym GRPO";

/** The seeded demo run is queued on a fresh start; the worker finishes it within a few minutes. */
async function openFinishedDemoRun(page: Page) {
  await page.goto("/runs");
  await page.getByRole("link", { name: DEMO }).click();
  await expect(page.getByRole("heading", { name: DEMO })).toBeVisible();
  await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 240_000 });
}

/** The predicted and real answers on screen: the next states and the outcome rows of the comparison. */
async function answersOnScreen(page: Page) {
  const text = (id: string) => page.getByTestId(id).textContent();
  return {
    predicted: [
      await text("diff-predicted"),
      await text("predicted-reward"),
      await text("predicted-done"),
      await text("predicted-valid-action"),
    ],
    real: [
      await text("diff-real"),
      await text("real-reward"),
      await text("real-done"),
      await text("real-valid-action"),
    ],
  };
}

test("a researcher finds where the experience model is gamed and opens the step where it parts from the real environment", async ({
  page,
}) => {
  test.setTimeout(360_000);
  await openFinishedDemoRun(page);
  const runUrl = page.url();

  await page.getByRole("link", { name: "Where the model is gamed" }).click();
  await expect(page).toHaveURL(/\/runs\/[^/]+\/gamed$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Where the model is gamed: ${DEMO}`);

  // The run's figures on top: how often and by how much the model pays what reality does not, and why they part.
  await expect(page.getByTestId("summary-gamed-share")).toHaveText(/^\d+\.\d%$/);
  await expect(page.getByTestId("summary-mean-excess")).toHaveText(/^[+-]?\d+\.\d+$/);
  await expect(page.getByTestId("summary-success")).toHaveText(/^\d+\.\d% → \d+\.\d%$/);
  // Reasons that matter (elements, choices on offer, reward, end, validity), not any textual difference.
  const why = page.getByRole("region", { name: "Why they part" });
  await expect(why).toContainText("elements differ");
  await expect(why).toContainText("choices on offer differ");
  await expect(page.getByTestId("why-elements")).toContainText(/\d+ \(\d+\.\d%\)/);

  // Episodes ranked by excess, largest first.
  const rows = page.getByTestId("gamed-row");
  await expect(rows.first()).toBeVisible();
  const excesses = await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute("data-excess"))));
  expect(excesses.length).toBeGreaterThan(1);
  expect(excesses).toEqual([...excesses].sort((a, b) => b - a));
  expect(excesses[0]).toBeGreaterThan(0);
  await page.screenshot({ path: screenshotPath("gamed.png") });

  // Keyboard-first: j/k move the selection, Enter opens the selected episode where model and real part.
  await expect(rows.nth(0)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("j");
  await expect(rows.nth(1)).toHaveAttribute("aria-selected", "true");
  await expect(rows.nth(0)).toHaveAttribute("aria-selected", "false");
  await page.keyboard.press("k");
  await expect(rows.nth(0)).toHaveAttribute("aria-selected", "true");
  const top = rows.nth(0);
  const instruction = (await top.getByTestId("gamed-instruction").textContent()) ?? "";
  const partsAt = Number(
    ((await top.getByTestId("parts-at").textContent()) ?? "").match(/^step (\d+)$/)?.[1],
  );
  expect(partsAt).toBeGreaterThan(0);
  await page.keyboard.press("Enter");

  // The step view, at the first step where the prediction departs from the real environment's answer.
  await expect(page).toHaveURL(new RegExp(`/trajectories/[^/?]+\\?.*step=${partsAt}`));
  await expect(page.getByTestId("instruction")).toHaveText(instruction);
  await expect(page.getByTestId("step-position")).toHaveText(new RegExp(`^Step ${partsAt} of \\d+$`));
  await expect(page.getByTestId("verdict")).toHaveText("prediction differs from the real answer");
  const { predicted, real } = await answersOnScreen(page);
  expect(predicted).not.toEqual(real);
  // It is the first such step: every step before it matches the real answer.
  for (let step = partsAt - 1; step >= 1; step--) {
    await page.keyboard.press("ArrowLeft");
    await expect(page.getByTestId("step-position")).toHaveText(new RegExp(`^Step ${step} of \\d+$`));
    await expect(page.getByTestId("verdict")).toHaveText("prediction matches the real answer");
  }

  // The mouse way, from a lower rank: the "parts at" link opens that episode at its own parting step.
  await page.goBack();
  await expect(rows.first()).toBeVisible();
  const third = rows.nth(2);
  const thirdInstruction = (await third.getByTestId("gamed-instruction").textContent()) ?? "";
  const thirdStep = Number(
    ((await third.getByTestId("parts-at").textContent()) ?? "").match(/^step (\d+)$/)?.[1],
  );
  await third.getByTestId("parts-at").click();
  await expect(page.getByTestId("instruction")).toHaveText(thirdInstruction);
  await expect(page.getByTestId("step-position")).toHaveText(new RegExp(`^Step ${thirdStep} of \\d+$`));
  await expect(page.getByTestId("verdict")).toHaveText("prediction differs from the real answer");

  // An iteration range with no episodes says so rather than showing an empty table.
  await page.goto(`${runUrl}/gamed`);
  await page.getByLabel("From iteration").fill("99");
  await expect(page).toHaveURL(/from=99/);
  await expect(page.getByTestId("gamed-empty")).toContainText("No synthetic episodes match these filters");

  // Across runs, from the researchers' menu: the demo run's episodes are there, each saying its run.
  await page.getByRole("link", { name: "Gamed episodes" }).click();
  await expect(page).toHaveURL(/\/gamed$/);
  await expect(rows.filter({ hasText: DEMO }).first()).toBeVisible();
  await expect(page.getByTestId("gamed-count")).toHaveText(
    /^\d+ episodes with a real answer, largest excess first$/,
  );
});
