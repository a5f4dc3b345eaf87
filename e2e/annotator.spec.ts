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

    // Keys that can do nothing here say why, without asking the server.
    const reviewCalls: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("annotations.review")) reviewCalls.push(request.url());
    });
    await page.keyboard.press("u");
    await expect(page.getByTestId("review-notice")).toContainText("This trace is already pending");
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
