import { type ChildProcess, spawn } from "node:child_process";
import { expect, type Page, test } from "@playwright/test";
import { authFile } from "./support/auth";
import { screenshotPath } from "./support/screenshots";

/**
 * A researcher makes a real environment that runs outside the app a domain: the helpdesk sample (AgentGym's generic
 * protocol) is registered from the Domains page, checked, offered by the launch form as a remote domain, and
 * removed; a wrong URL is refused with the reason; a viewer sees the list without the controls.
 */
let helpdesk: ChildProcess | undefined;
let helpdeskUrl = "";

/** Starts the sample server on a free port; its first line says where it listens. */
function startHelpdesk(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn("python3", ["samples/envs/helpdesk/server.py", "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let said = "";
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the helpdesk server exited (${code}) before listening`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      const line = said.split("\n")[0] ?? "";
      const m = /^listening on (http:\/\/\S+)/.exec(line);
      if (said.includes("\n") && m?.[1]) resolve({ child, url: m[1] });
      else if (said.includes("\n")) reject(new Error(`the helpdesk server said "${line}"`));
    });
  });
}

test.beforeAll(async () => {
  const started = await startHelpdesk();
  helpdesk = started.child;
  helpdeskUrl = started.url;
});

test.afterAll(() => {
  helpdesk?.kill("SIGTERM");
});

/** The elements that reach past the window's right edge (so that the page scrolls sideways), by tag and class. */
function overflowing(): string[] {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll("body *")]
    .filter((e) => e.getBoundingClientRect().right > width + 0.5)
    .map(
      (e) => `${e.tagName.toLowerCase()}.${e.className} (${Math.round(e.getBoundingClientRect().right)}px)`,
    )
    .slice(0, 10);
}

const card = (page: Page, name: string) => page.getByRole("article", { name, exact: true });

/** A tRPC mutation with this browser's cookies, from the app's own origin (as the page sends it). */
async function mutate(page: Page, path: string, input: unknown): Promise<number> {
  const response = await page.request.post(`/api/trpc/${path}`, {
    data: { json: input },
    headers: { origin: new URL(page.url()).origin },
  });
  return response.status();
}

test("a researcher registers a remote environment, checks it, finds it in the launch form and removes it", async ({
  page,
  browser,
}) => {
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Domains" }).click();
  await expect(page).toHaveURL(/\/domains$/);
  await expect(card(page, "shop").getByTestId("domain-kind")).toHaveText("built in");
  await expect(card(page, "web-admin").getByTestId("domain-kind")).toHaveText("imported");

  const form = page.getByRole("form", { name: "Register a remote environment" });
  await form.getByLabel("Name", { exact: true }).fill("helpdesk");
  await form.getByLabel("URL", { exact: true }).fill(helpdeskUrl);
  await form.getByLabel("Protocol").selectOption({ label: "AgentGym (generic text environment)" });
  await form.getByText("Advanced", { exact: true }).click();
  await form.getByLabel("Instruction pattern").fill("Ticket: (.*)");
  await form.getByLabel("Concurrency").fill("4");
  await form.getByLabel("Test: count").fill("50");
  await form.getByRole("button", { name: "Register" }).click();

  const result = form.getByTestId("register-result");
  await expect(result).toContainText("Registered helpdesk");
  await expect(result.getByTestId("sample-instruction")).toHaveText(
    /^Pavel Costa asks us to cancel their latest order\. .+ close the ticket\.$/,
  );
  await expect(result.getByTestId("sample-actions")).toHaveText(/^\d+ actions listed$/);
  const row = card(page, "helpdesk");
  await expect(row.getByTestId("domain-kind")).toHaveText("remote");
  await expect(row.getByTestId("domain-url")).toHaveText(helpdeskUrl);
  await expect(row).toContainText("AgentGym (generic text environment)");
  await expect(row.getByTestId("domain-token")).toHaveText("no");
  await expect(row).toContainText("4 episodes at once");
  await expect(row.getByTestId("domain-tasks")).toHaveText(
    "Tasks: 1000 train (numbers 0–999) · 50 test (numbers 1000–1049)",
  );
  await expect(row.getByTestId("domain-health")).toContainText("ok");
  await page.screenshot({ path: screenshotPath("domains.png"), fullPage: true });

  // Checked again: the time of the last health moves on.
  const before = await row.locator("time").getAttribute("datetime");
  await row.getByRole("button", { name: "Check now" }).click();
  await expect(row.locator("time")).not.toHaveAttribute("datetime", before ?? "");
  await expect(row.getByTestId("domain-health")).toContainText(/ok.*train task 0 \(number 0\) reset/);

  // A URL nothing answers on is refused with the reason, next to the form, and nothing is kept.
  await form.getByLabel("Name", { exact: true }).fill("helpdesk-wrong");
  await form.getByLabel("URL", { exact: true }).fill("http://127.0.0.1:9");
  await form.getByRole("button", { name: "Register" }).click();
  const refused = form.getByTestId("register-error");
  await expect(refused).toContainText(
    'remote domain "helpdesk-wrong" at http://127.0.0.1:9 failed its check: ',
  );
  await expect(result).toHaveCount(0);
  await expect(card(page, "helpdesk-wrong")).toHaveCount(0);

  // Readable on a phone: nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(overflowing)).toEqual([]);
  await page.screenshot({ path: "test-results/domains-390.png", fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });

  // A viewer sees it, with its health, and none of the controls; the API refuses them too.
  const viewerContext = await browser.newContext({ storageState: authFile("viewer") });
  const viewer = await viewerContext.newPage();
  await viewer.goto("/domains");
  await expect(card(viewer, "helpdesk").getByTestId("domain-health")).toContainText("ok");
  await expect(viewer.getByRole("form", { name: "Register a remote environment" })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: "Check now" })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: "Remove" })).toHaveCount(0);
  expect(await mutate(viewer, "domains.check", { name: "helpdesk" })).toBe(403);
  expect(await mutate(viewer, "domains.remove", { name: "helpdesk" })).toBe(403);
  await viewerContext.close();

  // The launch form offers it as a remote domain, a real one: the methods that play a real environment stay on.
  await page.goto("/runs/new");
  const domain = page.getByLabel("Domain", { exact: true });
  const option = domain.locator('option[value="helpdesk"]');
  await expect(option).toHaveText("helpdesk (remote: AgentGym (generic text environment))");
  await expect(option).toBeEnabled();
  await domain.selectOption("helpdesk");
  await expect(page.getByLabel("Method").locator('option[value="dreamgym-s2r"]')).toBeEnabled();

  // Removing it is asked once more, by name; cancelling keeps it.
  await page.goto("/domains");
  await card(page, "helpdesk").getByRole("button", { name: "Remove" }).click();
  const dialog = page.getByRole("dialog", { name: "Remove remote domain helpdesk?" });
  await expect(dialog).toContainText(helpdeskUrl);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await card(page, "helpdesk").getByRole("button", { name: "Remove" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove helpdesk" }).click();
  await expect(card(page, "helpdesk")).toHaveCount(0);
  await expect(card(page, "shop")).toBeVisible();
});
