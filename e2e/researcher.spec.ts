import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { PEOPLE } from "./support/auth";
import { downloadCsv, dragAcross, expectLabelsApart } from "./support/charts";
import { screenshotPath } from "./support/screenshots";

/** Flags are signed by whoever is signed in: the journeys' researcher. */
const ME = PEOPLE.researcher.email;
const DEMO = "demo: shop DreamGym GRPO";

/**
 * The demo DreamGym run is queued on a fresh start and stores its synthetic episodes iteration by iteration; wait
 * until it has finished, so that the list does not grow under the walk through it.
 */
async function waitForSyntheticEpisodes(page: Page) {
  await page.goto("/runs");
  await page.getByRole("link", { name: DEMO }).click();
  await expect(page.getByRole("heading", { name: DEMO })).toBeVisible();
  await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 240_000 });
  await page.goto("/trajectories?source=synthetic");
  await expect(page.getByTestId("trajectory-count")).toHaveText(/^[1-9][\d,]* trajector(y|ies)$/);
}

/** The step on screen has a real answer and the prediction departs from it. */
async function differsNow(page: Page): Promise<boolean> {
  const verdict = page.getByTestId("verdict");
  return (await verdict.count()) > 0 && ((await verdict.textContent()) ?? "").includes("differs");
}

/** Steps (then episodes, with n) until a step whose prediction differs from the real environment's answer. */
async function findDifferingStep(page: Page) {
  for (let episode = 0; episode < 20; episode++) {
    const position = (await page.getByTestId("step-position").textContent()) ?? "";
    const total = Number(position.split(" of ")[1]);
    for (let step = 0; step < total; step++) {
      if (await differsNow(page)) return;
      await page.keyboard.press("ArrowRight");
      await expect(page.getByTestId("step-position")).toHaveText(
        `Step ${Math.min(step + 2, total)} of ${total}`,
      );
    }
    if (await differsNow(page)) return;
    const listPosition = await page.getByTestId("episode-position").textContent();
    await page.keyboard.press("n");
    await expect(page.getByTestId("episode-position")).not.toHaveText(listPosition ?? "");
    await expect(page.getByTestId("step-position")).toHaveText(/^Step 1 of \d+$/);
  }
  throw new Error("no synthetic step whose prediction differs from the real answer in 20 episodes");
}

test.describe("researcher debugs a hallucinated transition", () => {
  test("finds a synthetic step that differs from the real answer, flags it, and finds it again", async ({
    page,
  }) => {
    test.setTimeout(300_000);
    await waitForSyntheticEpisodes(page);
    await expect(page.getByTestId("run-fidelity")).toHaveCount(0);

    // Narrow to the demo run; its fidelity figures appear above the list.
    const runOption = page.getByLabel("Run").locator("option", { hasText: DEMO });
    await page.getByLabel("Run").selectOption((await runOption.getAttribute("value")) ?? "");
    await expect(page).toHaveURL(/run=.+&source=synthetic|source=synthetic&run=/);
    await expect(page.getByTestId("fidelity-next-state-differs")).toHaveText(/^\d+\.\d%$/);
    // The figures say what they measure: along the run's episodes (closed loop), and beside that the steps still
    // on the real path, the ones comparable with the README's teacher-forced table.
    const fidelity = page.getByTestId("run-fidelity");
    await expect(fidelity.getByText("validity agreement (closed loop)")).toBeVisible();
    await expect(page.getByTestId("fidelity-validity-agreement")).toHaveText(/^\d+\.\d%$/);
    await expect(page.getByTestId("fidelity-on-path-validity-agreement")).toHaveText(
      /^\d+\.\d% on the real path$/,
    );
    await expect(page.getByTestId("fidelity-scope")).toContainText("closed loop");
    await expect(page.getByTestId("fidelity-scope")).toHaveAttribute("title", /teacher-forced/);

    await page.getByRole("table", { name: "Trajectories" }).getByRole("link").first().click();
    await expect(page.getByTestId("episode-position")).toHaveText(/^Episode 1 of \d+$/);
    await expect(page.getByTestId("step-position")).toHaveText(/^Step 1 of \d+$/);

    // Next and previous episode within the filtered list.
    const first = await page.getByTestId("instruction").textContent();
    await page.keyboard.press("n");
    await expect(page.getByTestId("episode-position")).toHaveText(/^Episode 2 of \d+$/);
    await page.keyboard.press("p");
    await expect(page.getByTestId("episode-position")).toHaveText(/^Episode 1 of \d+$/);
    await expect(page.getByTestId("instruction")).toHaveText(first ?? "");

    await findDifferingStep(page);
    // Prediction and real answer side by side, the differences marked on both sides.
    const predicted = (await page.getByTestId("next-state").textContent()) ?? "";
    await expect(page.getByTestId("diff-predicted")).toHaveText(predicted);
    await expect(page.getByTestId("diff-real")).toBeVisible();
    expect(await page.getByTestId("diff-real").textContent()).not.toBe(predicted);
    await expect(page.getByTestId("reasoning")).not.toBeEmpty();
    await expect(
      page.locator("[data-testid=diff-predicted] mark, [data-testid=diff-real] mark").first(),
    ).toBeVisible();
    // How far the experience model could be trusted here, and what that is made of.
    await expect(page.getByTestId("confidence-value")).toHaveText(/^confidence \d{1,3}%$/);
    await expect(page.getByTestId("confidence-part").first()).toHaveText(
      /^(familiarity|match|agreement|outcome|admissibility) [01]\.\d\d$/,
    );
    // The demonstrations the experience model retrieved from the replay buffer.
    await expect(page.getByTestId("demonstrations").getByRole("listitem").first()).toBeVisible();

    await page.keyboard.press("?");
    await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toHaveCount(0);
    await page.screenshot({ path: screenshotPath("step-diff.png"), fullPage: true });
    // A return that is not exactly 1 never reads as 1.00.
    const returned = page.getByTestId("return");
    if (Number(await returned.getAttribute("data-value")) !== 1)
      await expect(returned).not.toHaveText("return 1.00");

    // Flag it with a note; keys typed into the note are not shortcuts.
    const position = (await page.getByTestId("step-position").textContent()) ?? "";
    const instruction = (await page.getByTestId("instruction").textContent()) ?? "";
    const url = page.url();
    const realText = (await page.getByTestId("diff-real").textContent()) ?? "";
    await page.keyboard.press("f");
    const note = page.getByLabel("Flag note");
    await expect(note).toBeFocused();
    await note.pressSequentially("predicted results list products the real search never returns (j n k p)");
    await expect(page.getByTestId("step-position")).toHaveText(position);
    expect(page.url()).toBe(url);
    // A flag has a category and an author: whoever is signed in.
    await page.getByLabel("Flag category").selectOption({ label: "hallucinated element" });
    await expect(page.getByTestId("flag-as")).toContainText(PEOPLE.researcher.name);
    await page.screenshot({ path: "test-results/flag-form.png", fullPage: true });
    await page.getByRole("button", { name: "Flag step" }).click();
    await expect(page.getByTestId("flag-banner")).toContainText("Flagged as hallucinated");
    await expect(page.getByTestId("flag-category")).toHaveText("hallucinated element");
    await expect(page.getByTestId("flag-author")).toHaveText(PEOPLE.researcher.email);
    await expect(page.getByTestId("flag-note")).toHaveText(
      "predicted results list products the real search never returns (j n k p)",
    );
    const stepIndex = Number(position.split(" ")[1]) - 1;

    // A retrieved demonstration opens at its own step in its own episode.
    const demo = page
      .getByTestId("demonstrations")
      .getByRole("link", { name: /open step \d+/ })
      .first();
    const demoStep = Number((await demo.textContent())?.match(/open step (\d+)/)?.[1]);
    await demo.click();
    await expect(page.getByTestId("step-position")).toHaveText(new RegExp(`^Step ${demoStep} of \\d+$`));

    // The flagged list has it, with the run's figures counting it, and opens it where it was flagged.
    await page.goto("/flagged");
    await expect(page.getByTestId("flagged-count")).toHaveText("1 flagged step");
    // Other journeys may have launched runs of their own; the demo run's figures are the ones that count it.
    await expect(
      page.getByTestId("run-fidelity").filter({ hasText: DEMO }).getByTestId("fidelity-flagged-steps"),
    ).toHaveText("1");
    const row = page.getByRole("row").filter({ hasText: "real search never returns" });
    await expect(row).toContainText(instruction);
    await expect(row.getByTestId("flagged-category")).toHaveText("hallucinated element");
    await expect(row.getByTestId("flagged-author")).toHaveText(`by ${ME}`);
    await page.screenshot({ path: screenshotPath("flagged.png"), fullPage: true });

    // Filters by author and category, kept in the URL; the export downloads what they select.
    await page.getByLabel("Category").selectOption({ label: "wrong done" });
    await expect(page.getByTestId("flagged-count")).toHaveText("0 flagged steps");
    await page.getByLabel("Category").selectOption({ label: "hallucinated element" });
    await page.getByLabel("Author").selectOption(ME);
    await expect(page).toHaveURL(/category=hallucinated-element/);
    await expect(page).toHaveURL(new RegExp(`author=${encodeURIComponent(ME)}`));
    await expect(page.getByTestId("flagged-count")).toHaveText("1 flagged step");
    await page.reload();
    await expect(page.getByLabel("Author")).toHaveValue(ME);
    await expect(page.getByTestId("flagged-count")).toHaveText("1 flagged step");
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: /Export regression cases/ }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(
      /^dreamgym-flagged-hallucinated-element-researcher_demo\.local-.*\.jsonl$/,
    );
    const cases = fs
      .readFileSync((await download.path()) ?? "", "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(cases).toHaveLength(1);
    expect(cases[0]).toMatchObject({
      instruction,
      stepIndex: Number(position.split(" ")[1]) - 1,
      predicted: { nextState: predicted },
      real: { nextState: realText },
      category: "hallucinated-element",
      note: "predicted results list products the real search never returns (j n k p)",
      author: ME,
    });
    expect(cases[0].history).toHaveLength(cases[0].stepIndex);
    await page.goto("/flagged");
    await expect(page.getByTestId("flagged-count")).toHaveText("1 flagged step");
    await page.getByLabel("Domain").selectOption("household");
    await expect(page.getByTestId("flagged-count")).toHaveText("0 flagged steps");
    await page.getByLabel("Domain").selectOption("shop");
    await expect(page.getByTestId("flagged-count")).toHaveText("1 flagged step");
    await row.getByRole("link", { name: /Open step/ }).click();
    await expect(page.getByTestId("instruction")).toHaveText(instruction);
    await expect(page.getByTestId("step-position")).toHaveText(position);
    await expect(page).toHaveURL(new RegExp(`step=${stepIndex + 1}`));
    await expect(page.getByTestId("flag-banner")).toBeVisible();

    // The explorer finds the episode by its flag, and unflagging takes it out again.
    await page.goto("/trajectories?flagged=true");
    await expect(page.getByTestId("trajectory-count")).toHaveText("1 trajectory");
    await page.getByRole("link", { name: instruction }).click();
    await expect(page.getByTestId("instruction")).toHaveText(instruction);
    await expect(page).toHaveURL(/\/trajectories\/[^/?]+\?/);
    await page.goto(`${page.url().split("?")[0]}?step=${stepIndex + 1}`);
    await expect(page.getByTestId("step-position")).toHaveText(position);
    await page.getByRole("button", { name: "Unflag" }).click();
    await expect(page.getByTestId("flag-banner")).toHaveCount(0);
    await page.goto("/flagged");
    await expect(page.getByTestId("flagged-count")).toHaveText("0 flagged steps");
  });
});

test.describe("researcher reads a run's training curves", () => {
  test("sees loss and KL on a log scale, smooths, zooms and reads time on the x axis, exports the metrics, tags the run and finds it by the tag", async ({
    page,
  }) => {
    test.setTimeout(300_000);
    await page.goto("/runs");
    await page.getByRole("link", { name: DEMO }).click();
    await expect(page.getByRole("heading", { name: DEMO })).toBeVisible();
    await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 240_000 });
    const runUrl = page.url();

    // The update's figures, one panel each, a point per iteration.
    const kl = page.getByTestId("kl-chart");
    for (const chart of ["loss-chart", "kl-chart", "entropy-chart", "clip-chart"])
      await expect(page.getByTestId(chart), chart).toHaveAttribute("data-points", "4");
    // KL spans decades: on a log axis every tick is a power of ten.
    await page.getByRole("button", { name: "Log scale: KL" }).click();
    await expect(kl).toHaveAttribute("data-scale", "log");
    await expect(page.getByRole("button", { name: "Log scale: KL" })).toHaveAttribute("aria-pressed", "true");
    const ticks = await kl.locator(".recharts-yAxis-tick-labels text").allTextContents();
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    for (const t of ticks) expect(t).toMatch(/^(0\.0*1|1e-\d+|10*)$/);

    // Smoothing from the keyboard, on the slider; the raw lines stay faint behind.
    const slider = page.getByRole("slider", { name: "Smoothing" });
    await slider.focus();
    for (let k = 0; k < 5; k++) await page.keyboard.press("ArrowRight");
    await expect(page.getByLabel("Smoothing weight")).toHaveValue("0.05");
    await expect(page.getByTestId("loss-chart")).toHaveAttribute("data-smoothed", "true");
    await expect(page.getByTestId("loss-chart").locator(".smoothed-line").first()).toBeVisible();

    // Wall-clock time on the x axis, then a zoom into its second half, followed by every chart.
    await page.getByLabel("X axis").selectOption("time");
    await expect(kl.locator(".recharts-xAxis-tick-labels text").last()).toHaveText(/\d+s$/);
    await dragAcross(page, page.getByTestId("loss-chart"), 0.5, 0.99);
    await expect(page.getByTestId("zoom-range")).toHaveText(/^\d+(m \d\d)?s – \d+(m \d\d)?s$/);
    await expect(kl).toHaveAttribute("data-zoom", /.+/);
    await expect(page.getByTestId("success-chart")).toHaveAttribute("data-zoom", /.+/);
    await expectLabelsApart(page.getByTestId("success-chart"));
    await page.screenshot({ path: "test-results/run-charts-researcher.png", fullPage: true });
    await page.getByRole("button", { name: "Reset zoom" }).click();
    await expect(page.getByTestId("zoom-range")).toHaveCount(0);

    // The metrics as CSV, read back: one line per iteration, with the update's KL as a number.
    const csv = await downloadCsv(page);
    const header = csv.rows[0] ?? [];
    expect(header.slice(0, 3)).toEqual(["run_id", "run_name", "iteration"]);
    const klColumn = header.indexOf("update.approxKl");
    expect(klColumn).toBeGreaterThan(0);
    expect(csv.rows.slice(1)).toHaveLength(4);
    for (const row of csv.rows.slice(1)) expect(Number.isFinite(Number(row[klColumn]))).toBe(true);

    // A tag and a note, then the list finds the run by either.
    await page.getByLabel("New tag").fill("kl-baseline");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("run-tag")).toHaveText(["kl-baseline"]);
    await page.getByLabel("Run notes").fill("Reference curves for the KL and loss panels.");
    await page.getByRole("button", { name: "Save notes" }).click();
    await expect(page.getByTestId("notes-state")).toHaveText("Saved");
    await page.goto("/runs?tag=kl-baseline");
    const rows = page.getByTestId("run-row");
    await expect(rows).toHaveCount(1);
    await expect(rows).toContainText(DEMO);
    await expect(rows.getByTestId("run-tag")).toHaveText("kl-baseline");
    await page.goto("/runs?q=reference+curves");
    await expect(rows).toHaveCount(1);
    await page.getByLabel("Method", { exact: true }).selectOption("dreamgym");
    await page.getByLabel("Algorithm", { exact: true }).selectOption("grpo");
    await page.getByLabel("Domain", { exact: true }).selectOption("shop");
    await expect(rows).toHaveCount(1);
    await expect(page).toHaveURL(/method=dreamgym/);

    // Tidy: the tag comes off again on the run's page.
    await page.goto(runUrl);
    await page.getByRole("button", { name: "Remove tag kl-baseline" }).click();
    await expect(page.getByTestId("run-tag")).toHaveCount(0);
  });
});
