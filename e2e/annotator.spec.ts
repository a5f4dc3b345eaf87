import fs from "node:fs";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { authFile, PEOPLE } from "./support/auth";
import { screenshotPath } from "./support/screenshots";

interface ExportRecord {
  messages: { role: string; content: string }[];
  metadata: { status: string; corrected: boolean; teacher: string; domain: string };
}

const current = (page: Page) => page.locator("[data-testid=queue-item][aria-current=true]");

/** The queue signs reviews with whoever signed in (e2e/auth.setup.ts signed both annotators in). */
async function openQueue(page: Page, person: "annotator" | "annotator2") {
  await page.goto("/annotations");
  await expect(page.getByTestId("annotator")).toContainText(`Reviewing as ${PEOPLE[person].name}`);
}

const ANA = PEOPLE.annotator.email;

/**
 * The demo teacher job (40 shop traces) is queued on a fresh start; the worker writes them within a minute or so.
 * Waiting for all of them keeps the queue's length still while the test counts on it.
 */
async function waitForPendingTraces(page: Page, atLeast: number) {
  await expect
    .poll(
      async () => {
        await page.reload();
        const count = page.getByTestId("count-pending");
        await expect(count).not.toHaveText("–");
        return Number(await count.textContent());
      },
      { timeout: 180_000, intervals: [2_000, 5_000] },
    )
    .toBeGreaterThanOrEqual(atLeast);
}

/** Another annotator, in their own browser, finds the trace open for Ana and cannot review it. */
async function secondAnnotatorSeesLock(browser: Browser, baseURL: string, id: string): Promise<string> {
  const context = await browser.newContext({ baseURL, storageState: authFile("annotator2") });
  const page = await context.newPage();
  await openQueue(page, "annotator2");
  const item = page.locator(`[data-testid=queue-item][data-id="${id}"]`);
  await expect(item.getByTestId("locked-by")).toContainText(ANA);
  await item.click();
  // Who holds it, until when in local time and for how long: said once, never as a raw UTC stamp.
  const banner = page.getByTestId("lock-banner");
  await expect(banner).toContainText(
    new RegExp(`Locked by ${ANA} until \\d{1,2}:\\d{2}.* \\(for (\\d+ more minutes?|less than a minute)\\)`),
  );
  await expect(banner).not.toContainText(/\d{4}-\d\d-\d\dT/);
  await expect(page.getByRole("button", { name: "Accept a", exact: true })).toBeDisabled();
  await page.keyboard.press("a");
  await expect(page.getByTestId("lock-nudge")).toHaveText("Accept (a) waits for the lock.");
  await expect(page.getByTestId("review-error")).toHaveCount(0);
  await expect(page.getByText(`Locked by ${ANA}`, { exact: false })).toHaveCount(1);
  await expect(page.getByTestId("annotation-status")).toHaveText("pending");
  await page.screenshot({ path: "test-results/annotation-locked.png" });
  // Grace leaves the site with a trace open: the page frees it as it goes, without waiting for the lock to expire.
  await page.keyboard.press("j");
  await expect(page.getByTestId("lock-banner")).toContainText("You have this trace until");
  const gracesId = (await current(page).getAttribute("data-id")) ?? "";
  await page.goto("about:blank");
  await context.close();
  return gracesId;
}

test.use({ storageState: authFile("annotator") });

test.describe("annotator corrects teacher reasoning traces", () => {
  test("edits one trace and accepts another from the keyboard, and finds both in the export", async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(360_000);
    await openQueue(page, "annotator");
    await waitForPendingTraces(page, 40);
    const pendingBefore = Number(await page.getByTestId("count-pending").textContent());

    // The first trace nobody else has open is on screen, and locked for Ana.
    await expect(page.getByTestId("item-position")).toHaveText(`Item 1 of ${pendingBefore}`);
    await expect(page.getByTestId("lock-banner")).toContainText("You have this trace until");
    await page.keyboard.press("?");
    await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toHaveCount(0);

    // Each queue row and the review header say which task the step belongs to.
    const instruction = (await page.getByTestId("task-instruction").textContent()) ?? "";
    expect(instruction.length).toBeGreaterThan(0);
    await expect(current(page).getByTestId("queue-item-instruction")).toHaveAttribute("title", instruction);
    await expect(current(page).getByTestId("queue-item-instruction")).not.toBeEmpty();
    await expect(page.getByTestId("review-instruction")).toHaveAttribute("title", instruction);
    expect(
      instruction.startsWith(
        ((await page.getByTestId("review-instruction").textContent()) ?? "").replace(/…$/, ""),
      ),
    ).toBe(true);
    const rows = page.getByTestId("queue-item-instruction");
    expect(await rows.count()).toBe(pendingBefore);

    // Keys that can do nothing here say why, without reviewing anything.
    const reviewCalls: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("annotations.review")) reviewCalls.push(request.url());
    });
    await page.keyboard.press("u");
    await expect(page.getByTestId("review-notice")).toContainText("Nothing to undo");
    await expect(page.getByTestId("review-error")).toHaveCount(0);
    await expect(page.getByTestId("annotation-status")).toHaveText("pending");
    await page.keyboard.press("x");
    await expect(page.getByTestId("export-notice")).toContainText(
      "only reviewed traces (accepted or edited) are exported. Switch to Accepted (key 2), Edited (key 3) or All (key 5).",
    );
    expect(reviewCalls).toEqual([]);
    await page.screenshot({ path: "test-results/annotation-notices.png" });

    // Go to the second trace and correct it.
    await page.keyboard.press("j");
    await expect(page.getByTestId("item-position")).toHaveText(`Item 2 of ${pendingBefore}`);
    await expect(page.getByTestId("lock-banner")).toContainText("You have this trace until");
    const editedId = (await current(page).getAttribute("data-id")) ?? "";
    await expect(page.getByTestId("task-instruction")).not.toBeEmpty();
    await expect(page.getByTestId("step-action")).not.toBeEmpty();
    await expect(page.getByTestId("step-reward")).toHaveText(/^reward /);
    await expect(page.getByTestId("teacher")).toHaveText("retrieval-teacher-v1");
    const original = (await page.getByTestId("trace-original").textContent()) ?? "";

    await page.keyboard.press("e");
    const editor = page.getByLabel("Correction");
    await expect(editor).toBeFocused();
    await expect(editor).toHaveValue(original);
    // Rewrite the last words. The letters and digits are shortcuts elsewhere; in the editor they are just text.
    await page.keyboard.press("Control+End");
    for (let i = 0; i < 4; i++) await page.keyboard.press("Control+Shift+ArrowLeft");
    await page.keyboard.type(
      "episode continues: just keep exploring the results, since a real purchase needs Buy Now (step 2 at the earliest).",
    );
    await expect(page.getByTestId("item-position")).toHaveText(`Item 2 of ${pendingBefore}`);
    await expect(page.getByTestId("annotation-status")).toHaveText("pending");
    await expect(page.locator("[data-testid=trace-original] mark").first()).toBeVisible();
    await expect(page.locator("[data-testid=trace-corrected] mark").first()).toBeVisible();
    await page.screenshot({ path: screenshotPath("annotation-editor.png") });
    const correction = (await editor.inputValue()).trim();
    await page.keyboard.press("Control+Enter");

    // Saved: the trace leaves the pending queue and the next one takes its place.
    await expect(editor).toHaveCount(0);
    await expect(page.locator(`[data-testid=queue-item][data-id="${editedId}"]`)).toHaveCount(0);
    await expect(page.getByTestId("count-edited")).toHaveText("1");
    await expect(page.getByTestId("item-position")).toHaveText(`Item 2 of ${pendingBefore - 1}`);
    await expect(page.getByTestId("lock-banner")).toContainText("You have this trace until");
    const acceptedId = (await current(page).getAttribute("data-id")) ?? "";
    expect(acceptedId).not.toBe(editedId);
    const acceptedText = (await page.getByTestId("trace-original").textContent()) ?? "";

    const gracesId = await secondAnnotatorSeesLock(browser, baseURL ?? "", acceptedId);

    await page.keyboard.press("a");
    await expect(page.locator(`[data-testid=queue-item][data-id="${acceptedId}"]`)).toHaveCount(0);
    // The trace Grace had open when she left is free again, long before her lock would have expired.
    const gracesItem = page.locator(`[data-testid=queue-item][data-id="${gracesId}"]`);
    await expect(gracesItem).toHaveCount(1);
    await expect(gracesItem.getByTestId("locked-by")).toHaveCount(0);
    await expect(page.getByTestId("count-accepted")).toHaveText("1");
    await expect(page.getByTestId("count-pending")).toHaveText(String(pendingBefore - 2));

    // The corrected trace, side by side with the teacher's, and its history.
    await page.keyboard.press("3");
    await expect(page.getByRole("button", { name: /^Edited/ })).toHaveAttribute("aria-pressed", "true");
    await expect(current(page)).toHaveAttribute("data-id", editedId);
    await expect(page.getByTestId("annotation-status")).toHaveText("edited");
    await expect(page.getByTestId("trace-corrected")).toHaveText(correction);
    await expect(page.locator("[data-testid=trace-corrected] mark").first()).toBeVisible();
    await expect(page.getByTestId("history-event").first()).toContainText(`${ANA} corrected the trace`);
    await expect(page.getByTestId("lock-banner")).toContainText("You have this trace until");
    await page.screenshot({ path: screenshotPath("annotation-queue.png") });

    // All reviewed traces: the export holds exactly the two, the correction in place of the teacher's text.
    await page.keyboard.press("5");
    await expect(page.getByTestId("export-count")).toHaveText("2 SFT records");
    const downloading = page.waitForEvent("download");
    await page.keyboard.press("x");
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^dreamgym-sft-reviewed-.*\.jsonl$/);
    const records = fs
      .readFileSync((await download.path()) ?? "", "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as ExportRecord);
    const reasoning = (r: ExportRecord) =>
      (JSON.parse(r.messages.at(-1)?.content ?? "{}") as { reasoning?: string }).reasoning;
    expect(records.map((r) => r.metadata.status).sort()).toEqual(["accepted", "edited"]);
    const edited = records.find((r) => r.metadata.status === "edited");
    expect(edited?.metadata.corrected).toBe(true);
    expect(reasoning(edited!)).toBe(correction);
    expect(reasoning(records.find((r) => r.metadata.status === "accepted")!)).toBe(acceptedText);
    expect(records.every((r) => r.messages.map((m) => m.role).join() === "system,user,assistant")).toBe(true);
  });
});

/** The export under the current filters, downloaded with x, one record a line. */
async function exportRecords(page: Page): Promise<ExportRecord[]> {
  await expect(page.getByTestId("export-count")).toHaveText(/^\d+ SFT records?$/);
  const downloading = page.waitForEvent("download");
  await page.keyboard.press("x");
  const download = await downloading;
  return fs
    .readFileSync((await download.path()) ?? "", "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as ExportRecord);
}

test.describe("annotator corrects the whole prediction", () => {
  test("corrects a next state and a reward, reloads mid-edit without losing the draft, undoes a reject, and exports the corrections", async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await openQueue(page, "annotator");
    await waitForPendingTraces(page, 30);
    await expect(page.getByTestId("lock-banner")).toContainText("You have this trace until");
    const id = (await current(page).getAttribute("data-id")) ?? "";
    // The item on screen is in the address, so a reload comes back to it.
    await expect(page).toHaveURL(new RegExp(`[?&]item=${id}`));

    await page.keyboard.press("e");
    await expect(page.getByLabel("Correction")).toBeFocused();
    const nextState = "[Search Results] Page 1: the red ceramic mug, $12.99, in stock. [Next >]";
    await page.getByLabel("Corrected next state").fill(nextState);
    await page.getByLabel("Corrected reward").fill("0.5");
    await page.getByLabel("Episode ends here").check();
    await expect(page.getByTestId("draft-status")).toHaveAttribute("data-state", "saved");
    await page.screenshot({ path: screenshotPath("annotation-correction.png") });

    // While a change has not reached the server, leaving the page asks first (a link in the app, a reload).
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(
      (url) => url.pathname.includes("annotations.saveDraft"),
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.getByLabel("Corrected reward").fill("0.75");
    await expect(page.getByTestId("draft-status")).toHaveAttribute("data-state", "saving");
    const asked = page.waitForEvent("dialog");
    void page.locator('a[href^="/trajectories/"]').first().click();
    const dialog = await asked;
    expect(dialog.message()).toContain("has not been saved yet");
    await dialog.dismiss();
    await expect(page).toHaveURL(/\/annotations/);
    const unloadStopped = await page.evaluate(() => {
      const event = new Event("beforeunload", { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    });
    expect(unloadStopped).toBe(true);
    release();
    await expect(page.getByTestId("draft-status")).toHaveAttribute("data-state", "saved");
    await page.unroute((url) => url.pathname.includes("annotations.saveDraft"));

    // Reload mid-edit: the same item, the editor open where it was left.
    await page.reload();
    await expect(current(page)).toHaveAttribute("data-id", id);
    await expect(page.getByLabel("Corrected next state")).toHaveValue(nextState);
    await expect(page.getByLabel("Corrected reward")).toHaveValue("0.75");
    await expect(page.getByLabel("Episode ends here")).toBeChecked();
    await expect(page.getByTestId("draft-status")).toContainText("Draft restored");
    await expect(page.getByTestId("lock-banner")).toContainText("You have this trace until");
    await page.getByLabel("Corrected next state").press("Control+Enter");

    // Saved: the item is edited, its draft gone, and its corrected outcome shown beside the recorded one.
    await expect(page.getByLabel("Corrected next state")).toHaveCount(0);
    await expect(page.locator(`[data-testid=queue-item][data-id="${id}"]`)).toHaveCount(0);
    await page.keyboard.press("3");
    await page.locator(`[data-testid=queue-item][data-id="${id}"]`).click();
    await expect(page.getByTestId("annotation-status")).toHaveText("edited");
    await expect(page.getByTestId("corrected-reward")).toContainText("0.75");
    await expect(page.getByTestId("corrected-next-state")).toHaveText(nextState);
    await expect(page.getByTestId("history-fields").first()).toContainText("next state corrected");
    await expect(page.getByLabel("Corrected next state")).toHaveCount(0);

    // Undo a reject: the rejected item comes back, pending, on screen.
    await page.keyboard.press("1");
    await expect(page.getByTestId("lock-banner")).toContainText("You have this trace until");
    const rejectedId = (await current(page).getAttribute("data-id")) ?? "";
    await page.keyboard.press("r");
    await expect(page.locator(`[data-testid=queue-item][data-id="${rejectedId}"]`)).toHaveCount(0);
    await page.keyboard.press("u");
    await expect(page.getByTestId("review-notice")).toContainText("Undid your reject");
    await expect(current(page)).toHaveAttribute("data-id", rejectedId);
    await expect(page.getByTestId("annotation-status")).toHaveText("pending");
    await expect(page.getByTestId("history-event").first()).toContainText("undid their last review");

    // The export's line for the corrected item carries its next state, reward, end and reasoning.
    await page.keyboard.press("5");
    const records = await exportRecords(page);
    const corrected = records
      .map((r) => JSON.parse(r.messages.at(-1)?.content ?? "{}") as Record<string, unknown>)
      .filter((target) => target.next_state === nextState);
    expect(corrected).toHaveLength(1);
    expect(corrected[0]).toMatchObject({ next_state: nextState, reward: 0.75, done: true });
    expect(typeof corrected[0]!.reasoning).toBe("string");
  });
});

test.describe("work assigned to annotators", () => {
  test.use({ storageState: authFile("admin") });

  test("the admin writes guidelines and assigns work with an overlap; annotators find it first; agreement shows", async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    await page.goto("/annotations");
    await waitForPendingTraces(page, 10);

    const guidelines = "Reject a trace that names an element the page does not show.";
    await page.getByTestId("guidelines").getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("Guidelines text").fill(guidelines);
    await page.getByRole("button", { name: "Save guidelines" }).click();
    await expect(page.getByTestId("guidelines-text")).toHaveText(guidelines);

    const assign = page.getByTestId("assign");
    await assign.getByLabel("Assign to").selectOption(PEOPLE.annotator.email);
    await assign.getByLabel("How many items").fill("4");
    await assign.getByLabel("Overlap with").selectOption(PEOPLE.annotator2.email);
    await assign.getByLabel("Overlap percent").fill("50");
    await assign.getByRole("button", { name: "Assign" }).click();
    await expect(page.getByTestId("assign-result")).toHaveText(
      "Assigned 4 items, 2 of them to two annotators.",
    );
    // The admin moves on, and the item they had open is free again.
    await page.goto("/runs");

    const as = async (person: "annotator" | "annotator2") => {
      const context = await browser.newContext({ baseURL, storageState: authFile(person) });
      const other = await context.newPage();
      await openQueue(other, person);
      return { context, page: other };
    };

    // Ana reads the guidelines and finds her four items first; she accepts them all.
    const ana = await as("annotator");
    await expect(ana.page.getByTestId("guidelines-text")).toHaveText(guidelines);
    await expect(ana.page.getByTestId("assigned-to-me")).toHaveCount(4);
    await expect(ana.page.getByTestId("queue-item").first()).toHaveAttribute("data-mine", "true");
    for (let i = 4; i > 0; i--) {
      await expect(ana.page.getByTestId("assigned-to-me")).toHaveCount(i);
      await expect(current(ana.page)).toHaveAttribute("data-mine", "true");
      await expect(ana.page.getByTestId("lock-banner")).toContainText("You have this trace until");
      await ana.page.keyboard.press("a");
    }
    await expect(ana.page.getByTestId("assigned-to-me")).toHaveCount(0);
    await ana.page.goto("about:blank");
    await ana.context.close();

    // Grace's two shared items wait for her although Ana accepted them: she agrees on one and not the other.
    const grace = await as("annotator2");
    await expect(grace.page.getByTestId("assigned-to-me")).toHaveCount(2);
    await expect(grace.page.getByTestId("item-people")).toContainText(`${PEOPLE.annotator.email} (accepted)`);
    await expect(grace.page.getByTestId("lock-banner")).toContainText("You have this trace until");
    await grace.page.keyboard.press("a");
    await expect(grace.page.getByTestId("assigned-to-me")).toHaveCount(1);
    await expect(grace.page.getByTestId("lock-banner")).toContainText("You have this trace until");
    await grace.page.keyboard.press("r");
    await expect(grace.page.getByTestId("assigned-to-me")).toHaveCount(0);

    // Bulk: Grace selects two more items from the keyboard and rejects both at once.
    await grace.page.keyboard.press("s");
    await grace.page.keyboard.press("j");
    await grace.page.keyboard.press("s");
    await expect(grace.page.getByTestId("bulk-count")).toHaveText("2 selected");
    await grace.page.keyboard.press("Shift+R");
    await expect(grace.page.getByTestId("bulk-message")).toHaveText("Rejected 2 items.");
    await grace.page.goto("about:blank");
    await grace.context.close();

    // The admin's stats: each annotator's progress, and half of the overlapping verdicts agree.
    await page.goto("/annotations");
    const row = (email: string) => page.locator(`[data-testid=progress-row][data-email="${email}"]`);
    await expect(row(PEOPLE.annotator.email).getByTestId("progress-done")).toHaveText("4/4");
    await expect(row(PEOPLE.annotator2.email).getByTestId("progress-done")).toHaveText("2/2");
    await expect(page.getByTestId("agreement")).toHaveText("50% agree on 2 overlapping items");
    await expect(page.getByTestId("agreement-pair")).toContainText("1/2");
    await page.screenshot({ path: screenshotPath("annotation-team.png"), fullPage: true });
  });
});
