import { expect, type Page, test } from "@playwright/test";
import { authFile, PEOPLE, signInWithForm } from "./support/auth";
import { screenshotPath } from "./support/screenshots";

/**
 * A tRPC mutation sent straight to the API with this browser's cookies, naming the app's own page as its origin
 * (as the browser does; without it the cookie is refused before the role is asked).
 */
async function mutate(page: Page, path: string, input: unknown): Promise<number> {
  const response = await page.request.post(`/api/trpc/${path}`, {
    data: { json: input },
    headers: { origin: new URL(page.url()).origin },
  });
  return response.status();
}

test.describe("sign-in and roles", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("nobody signed in is sent to the sign-in page, and the API refuses them", async ({ page }) => {
    await page.goto("/runs/new");
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fruns%2Fnew$/);
    await page.screenshot({ path: screenshotPath("sign-in.png") });
    expect((await page.request.get("/api/trpc/runs.list")).status()).toBe(401);
    expect((await page.request.get("/api/flagged/export")).status()).toBe(401);
    await page.getByLabel("Email").fill(PEOPLE.researcher.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("form", { name: "Sign in" }).getByRole("alert")).toContainText(/invalid/i);
    // A provider's refusal comes back to this page, said in words rather than on a bare error page.
    await page.goto("/sign-in?error=invalid_code");
    await expect(page.getByRole("form", { name: "Sign in" }).getByRole("alert")).toContainText(
      "failed (invalid_code)",
    );
  });

  test("an annotator cannot reach the launch form or the runs API, and reviews as themselves", async ({
    page,
  }) => {
    await signInWithForm(page, "annotator", "/runs/new");
    await expect(page).toHaveURL(/\/runs\/new$/);
    await expect(page.getByTestId("not-allowed")).toContainText("Your role (annotator) may not launch runs");
    await expect(page.getByRole("button", { name: /launch/i })).toHaveCount(0);
    expect(await mutate(page, "runs.create", { method: "dreamgym", domain: "shop" })).toBe(403);
    await page.goto("/runs");
    await expect(page.getByRole("link", { name: "New run" })).toHaveCount(0);
    await page.goto("/annotations");
    await expect(page.getByTestId("annotator")).toContainText(`Reviewing as ${PEOPLE.annotator.name}`);
  });
});

test.describe("a viewer", () => {
  test.use({ storageState: authFile("viewer") });

  test("reads everything and can change nothing, in the UI or through the API", async ({ page }) => {
    await page.goto("/runs");
    await expect(page.getByTestId("signed-in")).toContainText("viewer");
    await expect(page.getByRole("link", { name: "New run" })).toHaveCount(0);
    await page.goto("/jobs");
    await expect(page.getByText("Your role (viewer) may not import trajectories")).toBeVisible();
    await expect(page.getByRole("button", { name: "Index pending steps" })).toHaveCount(0);
    await page.goto("/annotations");
    await expect(page.getByTestId("annotator")).toContainText("Read-only: your role (viewer) may not review");
    await page.goto("/users");
    await expect(page.getByTestId("not-allowed")).toContainText("may not manage people");
    for (const [path, input] of [
      ["runs.create", { method: "dreamgym", domain: "shop" }],
      ["runs.cancel", { id: "any" }],
      ["steps.flag", { id: "any", category: "other" }],
      ["jobs.importTrajectories", { name: "x", content: "{}" }],
      ["annotations.lock", { id: "any" }],
      ["users.create", { email: "x@y.org", name: "X", password: "long-enough", role: "admin" }],
    ] as const)
      expect([path, await mutate(page, path, input)]).toEqual([path, 403]);
    expect((await page.request.get("/api/annotations/export")).status()).toBe(403);
  });
});

test.describe("an admin", () => {
  test.use({ storageState: authFile("admin") });

  test("adds a person with a role, who then signs in with it", async ({ page, browser, baseURL }) => {
    await page.goto("/users");
    const form = page.getByRole("form", { name: "Add a person" });
    await form.getByLabel("Email").fill("new.researcher@lab.org");
    await form.getByLabel("Name").fill("Nia Newcomer");
    await form.getByLabel("Password").fill("nia-password");
    await form.getByLabel("Role").selectOption("researcher");
    await form.getByRole("button", { name: "Add", exact: true }).click();
    await expect(page.getByRole("status")).toContainText("Added new.researcher@lab.org as researcher");
    const row = page.getByTestId("user-row").filter({ hasText: "new.researcher@lab.org" });
    await expect(row.getByLabel("Role of new.researcher@lab.org")).toHaveValue("researcher");
    // The same email twice is refused, saying why.
    await form.getByLabel("Email").fill("new.researcher@lab.org");
    await form.getByLabel("Name").fill("Nia again");
    await form.getByLabel("Password").fill("nia-password");
    await form.getByRole("button", { name: "Add", exact: true }).click();
    await expect(page.getByRole("main").getByRole("alert")).toContainText("already has an account");
    await page.screenshot({ path: screenshotPath("users.png"), fullPage: true });

    const context = await browser.newContext({
      baseURL: baseURL ?? "",
      storageState: { cookies: [], origins: [] },
    });
    const newcomer = await context.newPage();
    await newcomer.goto("/sign-in");
    await newcomer.getByLabel("Email").fill("new.researcher@lab.org");
    await newcomer.getByLabel("Password").fill("nia-password");
    await newcomer.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(newcomer.getByTestId("signed-in")).toContainText("Nia Newcomer · researcher");
    await newcomer.goto("/runs/new");
    await expect(newcomer.getByTestId("not-allowed")).toHaveCount(0);
    await context.close();
  });
});
