import { expect, test } from "@playwright/test";

const MISSING = [
  { kind: "run", path: "/runs/no-such-run", back: "Back to runs", to: /\/runs$/ },
  {
    kind: "trajectory",
    path: "/trajectories/no-such-episode",
    back: "Back to trajectories",
    to: /\/trajectories$/,
  },
];

for (const { kind, path, back, to } of MISSING) {
  test(`an unknown ${kind} id is a 404 page with a way back, asked for at most twice`, async ({ page }) => {
    const id = path.split("/").at(-1) ?? "";
    const requests: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes(id)) requests.push(request.url());
    });
    const started = Date.now();
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.getByTestId("not-found")).toContainText(/not found/i, { timeout: 2_000 });
    expect(Date.now() - started).toBeLessThan(2_000);
    // No polling or retrying behind the page: it stays as it is.
    await page.waitForTimeout(3_000);
    await expect(page.getByTestId("not-found")).toBeVisible();
    expect(requests.length, requests.join("\n")).toBeLessThanOrEqual(2);
    await page.getByRole("link", { name: back }).click();
    await expect(page).toHaveURL(to);
  });
}
