import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { shuffledNextStates } from "../src/core/trust/testing";
import { screenshotPath } from "./support/screenshots";

const DOMAIN = "admin-noise";
const NAME = "researcher: DreamGym on logs nobody can predict";

test("a researcher imports logs the experience model cannot predict, and is told at import, on the run page and in the runs list that synthetic success there is untrustworthy", async ({
  page,
}) => {
  // The seeded demo run may still hold the worker; then the import, then this run.
  test.setTimeout(10 * 60_000);
  const sample = fs.readFileSync(path.join("samples", "web-admin.jsonl"), "utf8");
  // The web-admin sample with every next state swapped with another step's.
  const content = shuffledNextStates(sample, { seed: "e2e", domain: DOMAIN });

  await page.goto("/jobs");
  await page.getByLabel("Trajectory file").setInputFiles({
    name: `${DOMAIN}.jsonl`,
    mimeType: "application/jsonl",
    buffer: Buffer.from(content),
  });
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByTestId("import-notice")).toHaveText("Queued an import of 300 trajectories.");
  const job = page.getByTestId("job-import").first();
  await expect(job).toContainText("succeeded", { timeout: 5 * 60_000 });
  // The import measured the experience model on the held-out logs, and says what it found.
  await expect(job).toContainText(`${DOMAIN}: proxies untrustworthy`);

  // The domain's card keeps the import's figures under their verdict.
  await page.goto("/domains");
  const card = page.getByTestId("domain-card").filter({ hasText: DOMAIN });
  const atImport = card.getByTestId("domain-trust");
  await expect(atImport).toContainText("untrustworthy");
  await atImport.locator("summary").click();
  await expect(atImport.getByTestId("trust-warning")).toContainText("of their words with the logged ones");

  await page.goto("/runs/new");
  await page.getByLabel("Preset").selectOption("shop-dreamgym-grpo-quick");
  await page.getByLabel("Domain", { exact: true }).selectOption(DOMAIN);
  await page.getByLabel("Name").fill(NAME);
  await page.getByLabel("Iterations").fill("2");
  await page.getByLabel("Tasks per batch").fill("2");
  await page.getByLabel("Group size").fill("2");
  await page.getByLabel("Eval interval").fill("1");
  await page.getByLabel("Eval episodes").fill("5");
  await page.getByRole("button", { name: "Launch run" }).click();
  await expect(page).toHaveURL(/\/runs\/(?!new$)[^/?]+$/);
  const runId = new URL(page.url()).pathname.split("/").pop() ?? "";

  await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 8 * 60_000 });
  // Beside the proxies: the held-out figures, and the warning with its reasons.
  const panel = page.getByTestId("trust-panel");
  await expect(panel).toContainText("Held-out logs");
  const warning = panel.getByTestId("trust-warning");
  await expect(warning).toContainText("Synthetic success here is untrustworthy");
  await expect(warning).toContainText("the final evaluation");
  await expect(warning).toContainText("was in neither the logged next state nor its inputs");
  await expect(warning).toContainText("of their words with the logged ones");
  await expect(panel.getByTestId("trust-fidelity")).toContainText("Token F1 with the logged next state");
  await expect(panel.getByTestId("trust-fidelity")).toContainText("at least 50.0%");
  const policies = panel.getByTestId("trust-policy");
  await expect(policies).toHaveCount(3);
  await expect(policies.filter({ hasText: "noisy-0.7" })).toContainText("10");
  await expect(page.getByTestId("run-final-proxy")).toContainText("%");
  await page.screenshot({ path: screenshotPath("untrustworthy-run.png"), fullPage: true });

  // The runs list marks the run's proxies, with the reasons on hover.
  await page.goto("/runs");
  const row = page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`);
  const badge = row.getByTestId("trust-badge");
  await expect(badge).toHaveText("untrustworthy");
  await expect(badge).toHaveAttribute("title", /of their words with the logged ones/);
  await page.screenshot({ path: screenshotPath("untrustworthy-runs.png") });
});
