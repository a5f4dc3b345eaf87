import { expect, test } from "@playwright/test";
import { screenshotPath } from "./support/screenshots";

const NAME = "researcher: web-admin DreamGym from logs only";

test("a researcher trains DreamGym in a domain that exists only as imported logs, reads its proxies and opens its synthetic steps", async ({
  page,
}) => {
  // The seeded demo run goes first in the worker's queue, then this one.
  test.setTimeout(10 * 60_000);

  await page.goto("/runs/new");
  await page.getByLabel("Preset").selectOption("shop-dreamgym-grpo-quick");
  const domain = page.getByLabel("Domain", { exact: true });
  // The demo imports the web-admin sample (300 sessions): trainable. The six web-navigation logs are not, and
  // the menu says why instead of letting the worker fail later.
  await expect(domain.locator("option", { hasText: "web-admin (imported: logs only)" })).toBeEnabled();
  const web = domain.locator('option[value="web"]');
  await expect(web).toBeDisabled();
  await expect(web).toContainText("training needs at least");
  await domain.selectOption("web-admin");
  // There is no real environment to train in: the methods that need one are disabled.
  const method = page.getByLabel("Method");
  await expect(method.locator('option[value="real"]')).toBeDisabled();
  await expect(method.locator('option[value="dreamgym-s2r"]')).toBeDisabled();
  await expect(method).toHaveValue("dreamgym");
  await page.getByLabel("Name").fill(NAME);
  await page.getByLabel("Iterations").fill("2");
  await page.getByLabel("Tasks per batch").fill("3");
  await page.getByLabel("Group size").fill("2");
  await page.getByLabel("Eval interval").fill("1");
  await page.getByLabel("Eval episodes").fill("5");
  // The LLM judge is one more proxy, for imported domains only; this app has no endpoint to ask, and says so.
  const judge = page.getByLabel("LLM judge (proxy)");
  await judge.check();
  await page.getByRole("button", { name: "Launch run" }).click();
  await expect(page.getByText(/the LLM judge needs an OpenAI-compatible endpoint/)).toBeVisible();
  await expect(page).toHaveURL(/\/runs\/new$/);
  await judge.uncheck();
  await page.getByRole("button", { name: "Launch run" }).click();
  // Launching opens the new run's page.
  await expect(page).toHaveURL(/\/runs\/(?!new$)[^/?]+$/);
  const runId = new URL(page.url()).pathname.split("/").pop() ?? "";
  await expect(page.getByTestId("run-imported")).toHaveText("imported domain · proxies only");

  await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 8 * 60_000 });
  // Every figure is named a proxy; nothing reads as real success, and there is no sim-to-real gap to show.
  await expect(page.getByTestId("run-final-success")).toHaveCount(0);
  await expect(page.getByTestId("gap-chart")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Where the model is gamed" })).toHaveCount(0);
  await expect(page.getByTestId("run-final-proxy")).toContainText(/\d+(\.\d)?% from \d+(\.\d)?% untrained/);
  await expect(page.getByTestId("run-final-agreement")).toContainText("%");
  await expect(page.getByTestId("run-final-confidence")).toContainText("%");
  const success = page.getByTestId("success-chart");
  await expect(success).toContainText("Success rate (proxy)");
  await expect(success).toContainText("held-out imported tasks, synthetic env (proxy)");
  await expect(success).not.toContainText("test tasks, real env");
  await expect(success).toHaveAttribute("data-points", "2");
  await expect(page.getByTestId("proxy-chart")).toContainText("action agreement (proxy)");
  await expect(page.getByTestId("metric-row")).toHaveCount(2);
  // Beside the proxies, how far they can be trusted: the model against the held-out logs, with a verdict.
  const trust = page.getByTestId("trust-panel");
  await expect(trust.getByTestId("trust-fidelity")).toContainText("Token F1 with the logged next state");
  await expect(trust.getByTestId("trust-fidelity")).toContainText(
    "Logged successes the model ended in success",
  );
  await expect(trust.getByTestId("trust-policy")).toHaveCount(3);
  await expect(trust.getByTestId("trust-policy").filter({ hasText: "expert" })).toContainText("100.0%");
  await expect(trust.getByTestId("trust-warning").or(trust.getByTestId("trust-passed"))).toContainText(
    "the final evaluation",
  );
  await page.screenshot({ path: screenshotPath("imported-run.png"), fullPage: true });

  // Its synthetic steps, each reasoning trace beside the predicted state, with the model's confidence.
  await page.getByRole("link", { name: "Episodes", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/trajectories\\?run=${runId}`));
  await expect(page.getByTestId("fidelity-none")).toContainText("web-admin is an imported domain");
  await page.getByRole("row").nth(1).getByRole("link").first().click();
  await expect(page.getByTestId("step-position")).toHaveText(/Step 1 of \d+/);
  await expect(page.getByTestId("reasoning")).not.toBeEmpty();
  await expect(page.getByTestId("next-state")).not.toBeEmpty();
  await expect(page.getByTestId("confidence-value")).toBeVisible();
});
