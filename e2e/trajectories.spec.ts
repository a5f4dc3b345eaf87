import { expect, test } from "@playwright/test";
import { screenshotPath } from "./support/screenshots";

test.describe("researcher steps through an imported trajectory", () => {
  test("finds it by filter, walks it with the keyboard, sees reasoning, next state and reward", async ({
    page,
  }) => {
    // Home is the runs list for a researcher (annotators start at their queue); the explorer is one click away.
    await page.goto("/");
    await expect(page).toHaveURL(/\/runs$/);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Trajectories" }).click();
    await expect(page).toHaveURL(/\/trajectories/);
    await expect(page.getByRole("heading", { name: "Trajectories" })).toBeVisible();

    // Imported web-navigation logs sit beside the seeded shop and household data; narrow to them.
    await page.getByLabel("Domain").selectOption("web");
    await expect(page.getByTestId("trajectory-count")).toHaveText("6 trajectories");
    // The search applies as one types, without Enter, and lives in the URL like the other filters.
    const search = page.getByLabel("Search instructions");
    await search.pressSequentially("Subscribe", { delay: 40 });
    await expect(page).toHaveURL(/[?&]q=Subscribe(&|$)/);
    await expect(page.getByTestId("trajectory-count")).toHaveText("2 trajectories");
    await page.reload();
    await expect(search).toHaveValue("Subscribe");
    await expect(page.getByTestId("trajectory-count")).toHaveText("2 trajectories");
    const row = page.getByRole("row").filter({ hasText: "human" });
    await row.getByRole("link", { name: /Subscribe to the newsletter/ }).click();

    await expect(page.getByTestId("instruction")).toHaveText("Subscribe to the newsletter of the store.");
    await expect(page.getByTestId("step-position")).toHaveText("Step 1 of 4");
    await expect(page.getByTestId("action")).toHaveText("click[My Account]");
    await expect(page.getByTestId("reasoning")).toContainText(
      "Account settings hold the newsletter subscription",
    );
    await expect(page.getByTestId("next-state")).toContainText("[link] Newsletter Subscriptions");
    await expect(page.getByTestId("reward")).toHaveText("reward 0");
    // An offline step is what the environment did: "f" opens no note form but says why.
    await page.keyboard.press("f");
    await expect(page.getByTestId("flag-unavailable")).toContainText("this is an offline step");
    await expect(page.getByTestId("flag-unavailable")).toContainText("Only synthetic steps");
    await page.screenshot({ path: "test-results/flag-unavailable.png" });
    await expect(page.getByLabel("Flag note")).toHaveCount(0);
    await page.getByRole("button", { name: "Dismiss" }).click();
    await expect(page.getByTestId("flag-unavailable")).toHaveCount(0);
    // The button is aria-disabled, yet pressable (Playwright would wait for it to be enabled): it says why too.
    await page.getByRole("button", { name: /Flag as hallucinated/ }).click({ force: true });
    await expect(page.getByTestId("flag-unavailable")).toBeVisible();
    await expect(page.getByLabel("Flag note")).toHaveCount(0);

    await page.keyboard.press("ArrowRight");
    await expect(page.getByTestId("step-position")).toHaveText("Step 2 of 4");
    await expect(page.getByTestId("action")).toHaveText("click[Newsletter Subscriptions]");
    await page.keyboard.press("j");
    await expect(page.getByTestId("step-position")).toHaveText("Step 3 of 4");
    await page.keyboard.press("k");
    await expect(page.getByTestId("step-position")).toHaveText("Step 2 of 4");
    await page.keyboard.press("End");
    await expect(page.getByTestId("step-position")).toHaveText("Step 4 of 4");
    await expect(page.getByTestId("action")).toHaveText("click[Save]");
    await expect(page.getByTestId("reasoning")).toContainText("Saving stores the subscription");
    await expect(page.getByTestId("next-state")).toContainText("We have saved your subscription.");
    await expect(page.getByTestId("reward")).toHaveText("reward 1");
    // Past the end stays at the end.
    await page.keyboard.press("ArrowRight");
    await expect(page.getByTestId("step-position")).toHaveText("Step 4 of 4");
    await page.screenshot({ path: screenshotPath("episode-stepper.png"), fullPage: true });
  });

  test("the seeded real-environment data is listed and an invalid step is marked", async ({ page }) => {
    await page.goto("/trajectories?domain=web");
    await page.getByRole("link", { name: /Update the price of product/ }).click();
    await expect(page.getByTestId("step-position")).toHaveText("Step 1 of 6");
    await page.keyboard.press("End");
    await page.keyboard.press("ArrowLeft");
    await expect(page.getByTestId("step-position")).toHaveText("Step 5 of 6");
    await expect(page.getByText("invalid action")).toBeVisible();

    await page.goto("/trajectories");
    await page.getByLabel("Domain").selectOption("shop");
    await expect(page).toHaveURL(/domain=shop/);
    // The count reads "loading…" while the filtered list is fetched; wait for the filtered figure.
    await expect
      .poll(async () => Number((await page.getByTestId("trajectory-count").textContent())?.split(" ")[0]))
      .toBeGreaterThanOrEqual(300);
    await page.screenshot({ path: screenshotPath("trajectories.png"), fullPage: false });
  });
});
