import { type Browser, expect, type Page, test } from "@playwright/test";
import { authFile, type Person } from "./support/auth";
import { screenshotPath } from "./support/screenshots";

/** A phone's screen (an iPhone 12 to 15): every page must fit its width, scrolling only down. */
const PHONE = { width: 390, height: 844 };

/** The page's width and, when it is wider than the screen, the elements that stick out (to say what to fix). */
async function widthOf(page: Page): Promise<{ width: number; wide: string[] }> {
  return page.evaluate((limit) => {
    const wide: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>("*"))) {
      const right = el.getBoundingClientRect().right;
      if (right > limit + 0.5 && wide.length < 8) {
        // An element inside a scrolling box is fine: only what the page itself must hold counts.
        let scroller: HTMLElement | null = el.parentElement;
        let contained = false;
        while (scroller && scroller !== document.body) {
          const overflowX = getComputedStyle(scroller).overflowX;
          if (overflowX === "auto" || overflowX === "scroll" || overflowX === "hidden") contained = true;
          scroller = scroller.parentElement;
        }
        if (!contained)
          wide.push(
            `${el.tagName.toLowerCase()}.${el.className} (${Math.round(right)} px): ${el.textContent?.slice(0, 40)}`,
          );
      }
    }
    return { width: document.documentElement.scrollWidth, wide };
  }, PHONE.width);
}

/** Opens `path` on a phone as `person`, waits for `ready`, and checks that nothing scrolls sideways. */
async function fitsThePhone(page: Page, path: string, ready: (page: Page) => Promise<void>, shot?: string) {
  await page.goto(path);
  await ready(page);
  // Late data (charts, counts) can widen a page after its first paint.
  await page.waitForTimeout(1_000);
  const { width, wide } = await widthOf(page);
  // Soft: one run lists every page that is too wide, not only the first.
  expect
    .soft(width, `${path} is ${width} px wide at ${PHONE.width} px; too wide: ${wide.join(" | ")}`)
    .toBeLessThanOrEqual(PHONE.width);
  if (shot) await page.screenshot({ path: screenshotPath(shot), fullPage: false });
}

async function phoneAs(browser: Browser, person: Person | null, baseURL: string | undefined) {
  const context = await browser.newContext({
    baseURL: baseURL ?? "",
    viewport: PHONE,
    storageState: person ? authFile(person) : { cookies: [], origins: [] },
  });
  return { context, page: await context.newPage() };
}

const heading = (name: string | RegExp) => async (page: Page) => {
  await expect(page.getByRole("heading", { name, level: 1 }).first()).toBeVisible();
};

test.describe("every page on a 390 px phone", () => {
  test.use({ viewport: PHONE });

  test("the researcher's pages fit the width, and the menu opens and takes them elsewhere", async ({
    page,
  }) => {
    await fitsThePhone(
      page,
      "/runs",
      async (p) => {
        await expect(p.getByTestId("run-row").first()).toBeVisible();
      },
      "narrow-runs.png",
    );
    const ids = await page
      .getByTestId("run-row")
      .evaluateAll((rows) => rows.slice(0, 2).map((r) => r.getAttribute("data-run-id") ?? ""));
    expect(ids.length).toBeGreaterThan(0);

    // The sidebar is a bar: its links stay hidden until the menu opens, and a link closes it.
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Jobs & imports" })).toBeHidden();
    await nav.getByRole("button", { name: "Menu" }).click();
    await expect(nav.getByRole("link", { name: "Jobs & imports" })).toBeVisible();
    await page.screenshot({ path: screenshotPath("narrow-menu.png") });
    await nav.getByRole("link", { name: "Jobs & imports" }).click();
    await expect(page).toHaveURL(/\/jobs$/);
    await expect(nav.getByRole("link", { name: "Runs" })).toBeHidden();
    await expect(nav.getByRole("button", { name: "Menu" })).toHaveAttribute("aria-expanded", "false");

    await fitsThePhone(
      page,
      `/runs/${ids[0]}`,
      async (p) => {
        await expect(p.getByTestId("run-config")).toBeVisible();
      },
      "narrow-run.png",
    );
    await fitsThePhone(page, `/runs/compare?ids=${[ids[0], ids.at(-1)].join(",")}`, heading(/compare/i));
    await fitsThePhone(page, "/runs/new", async (p) => {
      await expect(p.getByRole("button", { name: "Launch run" })).toBeVisible();
    });
    await fitsThePhone(
      page,
      "/trajectories",
      async (p) => {
        await expect(p.getByTestId("trajectory-count")).toHaveText(/trajector/);
      },
      "narrow-trajectories.png",
    );
    const episode = await page
      .getByRole("table", { name: "Trajectories" })
      .getByRole("link")
      .first()
      .getAttribute("href");
    await fitsThePhone(
      page,
      episode ?? "/trajectories",
      async (p) => {
        await expect(p.getByTestId("step-position")).toBeVisible();
      },
      "narrow-step.png",
    );
    await fitsThePhone(page, `/curriculum?run=${ids[0]}`, heading("Curriculum"));
    await fitsThePhone(page, "/flagged", heading(/flagged/i));
    await fitsThePhone(page, "/gamed", heading(/gamed/i));
    await fitsThePhone(page, `/runs/${ids[0]}/gamed`, heading(/gamed/i));
    await fitsThePhone(page, "/regression", heading(/regression/i));
    await fitsThePhone(page, "/jobs", async (p) => {
      await expect(p.getByTestId("buffer-stats")).toBeVisible();
    });
    await fitsThePhone(page, "/domains", heading("Domains"));
  });

  test("the annotator's, viewer's and admin's pages and sign-in fit the width", async ({
    browser,
    baseURL,
  }) => {
    const annotator = await phoneAs(browser, "annotator", baseURL);
    await fitsThePhone(annotator.page, "/annotations", heading(/annotation/i), "narrow-annotations.png");
    await annotator.context.close();

    const viewer = await phoneAs(browser, "viewer", baseURL);
    await fitsThePhone(viewer.page, "/jobs", async (p) => {
      await expect(p.getByTestId("buffer-stats")).toBeVisible();
    });
    await fitsThePhone(viewer.page, "/runs", async (p) => {
      await expect(p.getByTestId("run-row").first()).toBeVisible();
    });
    await viewer.context.close();

    const admin = await phoneAs(browser, "admin", baseURL);
    await fitsThePhone(
      admin.page,
      "/users",
      async (p) => {
        await expect(p.getByTestId("user-row").first()).toBeVisible();
      },
      "narrow-users.png",
    );
    await admin.context.close();

    const nobody = await phoneAs(browser, null, baseURL);
    await fitsThePhone(nobody.page, "/sign-in", async (p) => {
      await expect(p.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
    });
    await nobody.context.close();
  });
});
