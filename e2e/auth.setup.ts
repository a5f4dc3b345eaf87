import { expect, test as setup } from "@playwright/test";
import { authFile, PEOPLE, type Person, signInWithForm } from "./support/auth";

/** Each role signs in once; the journeys reuse their cookies (playwright.config.ts: storageState). */
setup("the people of the journeys sign in", async ({ page, browser }) => {
  await signInWithForm(page, "admin");
  // The admin adds the second annotator the lock journey needs, through the API the Users page uses.
  const added = await page.request.post("/api/trpc/users.create", {
    data: { json: { ...PEOPLE.annotator2, role: "annotator" } },
    // From the app's page, as the browser would say: a cookie without it is refused (src/server/auth/sameOrigin.ts).
    headers: { origin: new URL(page.url()).origin },
  });
  expect([200, 409]).toContain(added.status());
  await page.context().storageState({ path: authFile("admin") });
  for (const person of ["researcher", "annotator", "viewer", "annotator2"] as Person[]) {
    const context = await browser.newContext();
    const other = await context.newPage();
    await signInWithForm(other, person);
    await context.storageState({ path: authFile(person) });
    await context.close();
  }
});
