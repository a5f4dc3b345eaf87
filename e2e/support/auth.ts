import path from "node:path";
import { expect, type Page } from "@playwright/test";

/** The demo people (src/server/auth/bootstrap.ts) and the e2e admin (playwright.config.ts), by role. */
export const PEOPLE = {
  admin: { email: "admin@e2e.local", password: "e2e-admin-password", name: "Admin" },
  researcher: { email: "researcher@demo.local", password: "dreamgym-demo", name: "Rosa Researcher" },
  annotator: { email: "annotator@demo.local", password: "dreamgym-demo", name: "Ana Annotator" },
  viewer: { email: "viewer@demo.local", password: "dreamgym-demo", name: "Pat Viewer" },
  /** A second annotator, added by the admin in the setup, for the lock journey. */
  annotator2: { email: "grace@demo.local", password: "grace-password", name: "Grace Annotator" },
} as const;
export type Person = keyof typeof PEOPLE;

/** Where a signed-in browser's cookies are kept between the setup and the journeys. */
export function authFile(person: Person): string {
  const port = Number(process.env.E2E_PORT ?? 3100);
  return path.resolve(`e2e/.artifacts/${port}/auth/${person}.json`);
}

/** Signs in through the sign-in page, as a person would. */
export async function signInWithForm(page: Page, person: Person, next = "/runs") {
  const who = PEOPLE[person];
  await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("signed-in")).toContainText(who.name);
}
