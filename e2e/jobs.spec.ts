import { expect, test } from "@playwright/test";
import { screenshotPath } from "./support/screenshots";

test("a researcher's malformed upload is refused with its line numbers; fixed and picked again under the same name, the worker imports it", async ({
  page,
}) => {
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await page.goto("/jobs");
  const picker = page.getByLabel("Trajectory file");
  // Picking a file only chooses it; the import starts with the button.
  const upload = async (name: string, content: string) => {
    await picker.setInputFiles({ name, mimeType: "application/jsonl", buffer: Buffer.from(content) });
    await expect(page.getByTestId("import-chosen")).toContainText(name);
    await page.getByRole("button", { name: "Import", exact: true }).click();
  };

  // An empty file (or one of blank lines) is said to be empty, not counted as a bad line.
  await upload("empty.jsonl", "\n\n");
  await expect(page.getByTestId("import-error")).toHaveText(
    "empty.jsonl was rejected, nothing imported: the file is empty",
  );
  await expect(picker).toHaveValue("");

  await upload("broken.jsonl", '{"domain":"web","instruction":"x","steps":[]}\nnot json\n');
  await expect(page.getByTestId("import-error")).toContainText("broken.jsonl was rejected (2 bad lines)");
  await expect(page.getByTestId("import-error")).toContainText(
    "line 1: steps: a trajectory needs at least one step",
  );
  await expect(page.getByTestId("import-error")).toContainText("line 2: not valid JSON");
  // The picker is cleared after each pick, so choosing the same file again is a change the page sees.
  await expect(picker).toHaveValue("");

  const line = JSON.stringify({
    domain: "intranet",
    instruction: "Open the contact page.",
    steps: [
      {
        state: "[Page] Home\n[link] Contact",
        action: "click[Contact]",
        reasoning: "The link is on the page.",
        next_state: "[Page] Contact",
        reward: 1,
        done: true,
      },
    ],
  });
  // Fixed, and picked again under the same name: imported, and the old error is gone.
  await upload("broken.jsonl", `${line}\n`);
  await expect(page.getByTestId("import-notice")).toHaveText("Queued an import of 1 trajectory.");
  await expect(page.getByTestId("import-error")).toHaveCount(0);
  await expect(picker).toHaveValue("");
  const job = page.getByTestId("job-import").first();
  await expect(job).toContainText("succeeded", { timeout: 30_000 });
  await expect(job).toContainText("imported 1 trajectories");
  await page.screenshot({ path: screenshotPath("jobs.png") });
  expect(pageErrors).toEqual([]);

  await page.goto("/trajectories?q=contact%20page");
  await expect(page.getByRole("link", { name: "Open the contact page." })).toBeVisible();
});

test("a researcher sees the replay buffer filled by the seed and queues teacher traces that the worker writes", async ({
  page,
}) => {
  await page.goto("/jobs");
  const stats = page.getByTestId("buffer-stats");
  await expect(stats).toContainText(/household\/offline: \d+/, { timeout: 60_000 });
  await expect(stats).toContainText("embedder hash-ngram-v1-256");
  await page.getByLabel("Teacher domain").selectOption("household");
  await page.getByLabel("Teacher traces").fill("25");
  await page.getByRole("button", { name: "Write traces" }).click();
  const job = page.getByTestId("job-teacher").first();
  await expect(job).toContainText("succeeded", { timeout: 60_000 });
  await expect(job).toContainText("25/25 traces");
  await page.screenshot({ path: screenshotPath("jobs.png") });
});
