import { type APIRequestContext, expect, request as playwrightRequest, test } from "@playwright/test";
import { authFile } from "./support/auth";

const GONE = { email: "leaving@lab.org", name: "Lee Leaving", password: "leaving-password" };

/** A trainer's bearer token for `GONE`, from the sign-in endpoint a script would call. */
async function bearerToken(api: APIRequestContext, origin: string): Promise<string> {
  const response = await api.post("/api/auth/sign-in/email", {
    data: { email: GONE.email, password: GONE.password },
    headers: { origin },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/** Who the API says is signed in for a bearer token (null: nobody). */
async function whoIs(api: APIRequestContext, token: string): Promise<{ email: string } | null> {
  const response = await api.get("/api/trpc/users.me", { headers: { authorization: `Bearer ${token}` } });
  return ((await response.json()) as { result: { data: { json: { email: string } | null } } }).result.data
    .json;
}

test.describe("an admin manages access", () => {
  test.use({ storageState: authFile("admin") });

  test("deactivates a person, whose browser session and token stop at once, and reactivates them; every change is in the audit log", async ({
    page,
    browser,
    baseURL,
  }) => {
    const origin = baseURL ?? "";
    await page.goto("/users");
    const form = page.getByRole("form", { name: "Add a person" });
    await form.getByLabel("Email").fill(GONE.email);
    await form.getByLabel("Name").fill(GONE.name);
    await form.getByLabel("Password").fill(GONE.password);
    await form.getByLabel("Role").selectOption("researcher");
    await form.getByRole("button", { name: "Add", exact: true }).click();
    await expect(page.getByRole("status")).toContainText(`Added ${GONE.email} as researcher`);
    const row = page.getByTestId("user-row").filter({ hasText: GONE.email });

    // A role change asks first: cancelled, nothing changes.
    const role = row.getByLabel(`Role of ${GONE.email}`);
    await role.selectOption("viewer");
    const dialog = page.getByRole("dialog", { name: "Change this role?" });
    await expect(dialog).toContainText(`${GONE.email} goes from researcher to viewer`);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(role).toHaveValue("researcher");

    // An error (the admin deactivating themselves) stays until something later succeeds.
    await page
      .getByTestId("user-row")
      .filter({ hasText: "admin@e2e.local" })
      .getByRole("button", { name: "Deactivate admin@e2e.local" })
      .click();
    await page
      .getByRole("dialog", { name: "Deactivate this person?" })
      .getByRole("button", { name: "Deactivate" })
      .click();
    await expect(page.getByRole("main").getByRole("alert")).toContainText("you cannot deactivate yourself");
    await role.selectOption("annotator");
    await page
      .getByRole("dialog", { name: "Change this role?" })
      .getByRole("button", { name: "Make annotator" })
      .click();
    await expect(page.getByRole("status")).toContainText(`${GONE.email} is now annotator`);
    await expect(page.getByRole("main").getByRole("alert")).toHaveCount(0);

    // They are signed in in a browser, and a script holds a bearer token of theirs.
    const theirs = await browser.newContext({ baseURL: origin, storageState: { cookies: [], origins: [] } });
    const them = await theirs.newPage();
    await them.goto("/sign-in");
    await them.getByLabel("Email").fill(GONE.email);
    await them.getByLabel("Password").fill(GONE.password);
    await them.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(them.getByTestId("signed-in")).toContainText(GONE.name);
    const api = await playwrightRequest.newContext({ baseURL: origin });
    const token = await bearerToken(api, origin);
    expect(await whoIs(api, token)).toMatchObject({ email: GONE.email });

    await row.getByRole("button", { name: `Deactivate ${GONE.email}` }).click();
    await page
      .getByRole("dialog", { name: "Deactivate this person?" })
      .getByRole("button", { name: "Deactivate" })
      .click();
    await expect(page.getByRole("status")).toContainText(`${GONE.email} is deactivated`);
    await expect(row).toContainText("deactivated");

    // At once: the token is nobody's, the browser's next page is signed out, and signing in is refused.
    expect(await whoIs(api, token)).toBeNull();
    await them.reload();
    // The page they had open finds nobody signed in and sends them to sign in, coming back to it after.
    await expect(them).toHaveURL(/\/sign-in\?next=%2Fannotations/);
    await expect(them.getByTestId("signed-in")).toHaveCount(0);
    expect(
      (
        (await (await them.request.get("/api/trpc/users.me")).json()) as {
          result: { data: { json: unknown } };
        }
      ).result.data.json,
    ).toBeNull();
    await them.getByLabel("Email").fill(GONE.email);
    await them.getByLabel("Password").fill(GONE.password);
    await them.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(them.getByRole("main").getByRole("alert")).toContainText("deactivated");

    await row.getByRole("button", { name: `Reactivate ${GONE.email}` }).click();
    await expect(page.getByRole("status")).toContainText(`${GONE.email} can sign in again`);
    // The old token stays ended; signing in works again.
    expect(await whoIs(api, token)).toBeNull();
    expect(await whoIs(api, await bearerToken(api, origin))).toMatchObject({ email: GONE.email });
    await them.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(them.getByTestId("signed-in")).toContainText(GONE.name);
    await theirs.close();
    await api.dispose();

    // The audit log, newest first: reactivated, deactivated, role changed, added; all by the admin.
    const log = page.getByTestId("audit-row").filter({ hasText: GONE.email });
    await expect(log).toHaveCount(4);
    await expect(log.nth(0)).toContainText("reactivated");
    await expect(log.nth(1)).toContainText("deactivated");
    await expect(log.nth(2)).toContainText("researcher → annotator");
    await expect(log.nth(3)).toContainText("added");
    for (const entry of await log.all()) await expect(entry).toContainText("admin@e2e.local");
  });
});

test.describe("the audit log is for admins", () => {
  test.use({ storageState: authFile("researcher") });

  test("a researcher cannot read it", async ({ page }) => {
    await page.goto("/users");
    await expect(page.getByTestId("not-allowed")).toBeVisible();
    await expect(page.getByTestId("audit-log")).toHaveCount(0);
    const response = await page.request.get("/api/trpc/users.auditLog");
    expect(response.status()).toBe(403);
  });
});
