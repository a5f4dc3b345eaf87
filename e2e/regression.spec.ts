import { expect, type Page, test } from "@playwright/test";
import {
  type FakeOpenAI,
  type FakeRequest,
  okJson,
  startFakeOpenAI,
} from "../tests/helpers/fakeOpenAIServer";
import { screenshotPath } from "./support/screenshots";

const DEMO = "demo: shop DreamGym GRPO";

interface RealAnswer {
  nextState: string;
  reward: number;
  done: boolean;
}

/** The real environment's answer to the step on screen, read from the app's API as the step view reads it. */
async function realAnswerOnScreen(
  page: Page,
): Promise<{ stepId: string; instruction: string; action: string; real: RealAnswer | null }> {
  const url = new URL(page.url());
  const id = url.pathname.split("/").at(-1) ?? "";
  const index = Number(url.searchParams.get("step") ?? "1") - 1;
  const input = encodeURIComponent(JSON.stringify({ json: { id } }));
  const response = await page.request.get(`/api/trpc/trajectories.get?input=${input}`);
  expect(response.ok()).toBe(true);
  const trajectory = (await response.json()).result.data.json as {
    task: { instruction: string };
    steps: {
      id: string;
      action: string;
      done: boolean;
      realNextState: string | null;
      realReward: number | null;
      realDone: boolean | null;
    }[];
  };
  const step = trajectory.steps[index];
  if (!step) throw new Error(`no step ${index} in episode ${id}`);
  // The step view shows that episode (not the one before it, still on screen while the next one loads).
  await expect(page.getByTestId("instruction")).toHaveText(trajectory.task.instruction);
  return {
    stepId: step.id,
    instruction: trajectory.task.instruction,
    action: step.action,
    // A generated task the real environment cannot play has no real answer: no case to judge.
    real:
      step.realNextState === null || step.realReward === null
        ? null
        : { nextState: step.realNextState, reward: step.realReward, done: step.realDone ?? step.done },
  };
}

/** Flags the step on screen with a category, as a researcher does (f, a category, Flag step). */
async function flagStepOnScreen(page: Page) {
  await page.keyboard.press("f");
  await page.getByLabel("Flag category").selectOption({ label: "hallucinated element" });
  await page.getByRole("button", { name: "Flag step" }).click();
  await expect(page.getByTestId("flag-banner")).toContainText("Flagged as hallucinated");
}

/** The prompt's task and action: what tells the fake endpoint which case it is asked. */
function caseOf(request: FakeRequest): string {
  const user = String(request.body.messages?.find((m) => m.role === "user")?.content ?? "");
  const instruction = /## Task\n([\s\S]*?)\n\n/.exec(user)?.[1] ?? "";
  const action = user.split("## Action\n").at(-1)?.trim() ?? "";
  return `${instruction}\n${action}`;
}

test.describe("the experience model's regression suite", () => {
  let endpoint: FakeOpenAI;
  /** The real answer of each flagged case, and which cases each endpoint model answers with it. */
  const answers = new Map<string, RealAnswer>();
  const rightFor = new Map<string, Set<string>>();

  test.beforeAll(async () => {
    // Two versions of an endpoint's experience model, on a real OpenAI-protocol server on 127.0.0.1: each model
    // answers some flagged cases with the real answer and the rest with an invented page.
    endpoint = await startFakeOpenAI((request) => {
      const key = caseOf(request);
      const real = answers.get(key);
      const right = real !== undefined && rightFor.get(request.body.model ?? "")?.has(key) === true;
      return okJson({
        reasoning: right ? "the page the action leads to" : "an invented page",
        next_state: right ? real.nextState : "Invented Page [SEP] Product That Does Not Exist [SEP] $0.01",
        reward: right ? real.reward : 0.7,
        done: right ? real.done : false,
        success: false,
        valid: true,
      });
    });
  });
  test.afterAll(async () => {
    await endpoint.close();
  });

  test("a researcher flags three steps, runs two versions against them, and sees one case fixed and one broken", async ({
    page,
  }) => {
    test.setTimeout(420_000);
    await page.goto("/runs");
    await page.getByRole("link", { name: DEMO }).click();
    // The runs list has a status per row: wait for the run's own page before reading one.
    await page.waitForURL(/\/runs\/[^/?]+$/);
    await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 240_000 });
    const runId = new URL(page.url()).pathname.split("/").at(-1) ?? "";

    // Three steps of three tasks of the demo run, flagged from the step view.
    await page.goto(`/trajectories?run=${runId}&source=synthetic`);
    await page.getByRole("table", { name: "Trajectories" }).getByRole("link").first().click();
    await expect(page.getByTestId("step-position")).toHaveText(/^Step 1 of \d+$/);
    const cases: string[] = [];
    const flaggedIds: string[] = [];
    const instructions = new Set<string>();
    while (cases.length < 3) {
      const { stepId, instruction, action, real } = await realAnswerOnScreen(page);
      if (real && !instructions.has(instruction)) {
        instructions.add(instruction);
        await flagStepOnScreen(page);
        flaggedIds.push(stepId);
        const key = `${instruction}\n${action}`;
        answers.set(key, real);
        cases.push(key);
      }
      const listPosition = (await page.getByTestId("episode-position").textContent()) ?? "";
      const episodeUrl = page.url().split("?")[0] ?? "";
      await page.keyboard.press("n");
      await expect(page.getByTestId("episode-position")).not.toHaveText(listPosition);
      await expect.poll(() => page.url().split("?")[0]).not.toBe(episodeUrl);
      await expect(page.getByTestId("step-position")).toHaveText(/^Step 1 of \d+$/);
    }
    const [first, second, third] = cases as [string, string, string];
    // The older version gets the first and third right; the newer one breaks the first and fixes the second.
    rightFor.set("exp-model-a", new Set([first, third]));
    rightFor.set("exp-model-b", new Set([second, third]));

    await page.getByRole("link", { name: "Regression suite" }).click();
    await expect(page).toHaveURL(/\/regression/);
    await expect(page.getByLabel("Domain")).toHaveValue("shop");
    const form = page.getByRole("region", { name: "Run a version" });
    const checks = page.getByTestId("check-row");
    for (const [n, model] of ["exp-model-a", "exp-model-b"].entries()) {
      await form.getByLabel("Backend").selectOption("openai");
      await form.getByLabel("Model").fill(model);
      await form.getByLabel("Endpoint URL").fill(endpoint.url);
      await form.getByLabel("Held-out transitions").fill("2");
      await form.getByRole("button", { name: "Run against the suite" }).click();
      // The newest check is listed first, live, until the worker has finished it.
      await expect(checks).toHaveCount(n + 1);
      await expect(checks.first().getByTestId("check-label")).toContainText(
        `openai:${model} · dreamgym-exp-`,
      );
      await expect(checks.first().getByTestId("check-status")).toHaveText("succeeded", { timeout: 120_000 });
    }

    // Side by side, oldest version first: the newer one fixed one case and broke another.
    const heads = page.getByTestId("version-head");
    await expect(heads).toHaveCount(2);
    await expect(heads.nth(0)).toContainText("openai:exp-model-a");
    await expect(heads.nth(1).getByTestId("version-tally")).toHaveText(
      /^\d+\/\d+ right · 1 fixed · 1 broken$/,
    );
    await expect(heads.nth(1).getByTestId("version-fidelity")).toContainText("held-out: F1");
    const row = (key: string) =>
      page.getByTestId("case-row").filter({
        has: page.getByTestId("case-action").getByText(key.split("\n")[1] ?? "", { exact: true }),
      });
    const cells = (key: string) => row(key).first().getByTestId("case-cell");
    await expect(cells(first).nth(0)).toHaveAttribute("data-right", "true");
    await expect(cells(first).nth(1)).toHaveAttribute("data-mark", "broken");
    await expect(cells(second).nth(0)).toHaveAttribute("data-right", "false");
    await expect(cells(second).nth(1)).toHaveAttribute("data-mark", "fixed");
    await expect(cells(third).nth(1)).toHaveAttribute("data-mark", "");
    await expect(page.getByTestId("case-mark").filter({ hasText: "fixed" })).toHaveCount(1);
    await expect(page.getByTestId("case-mark").filter({ hasText: "broken" })).toHaveCount(1);
    await page.screenshot({ path: screenshotPath("regression.png"), fullPage: true });

    // The held-out transitions are cases too, asked of both versions alike.
    await page.getByRole("tab", { name: "Held-out transitions" }).click();
    await expect(page).toHaveURL(/cases=held-out/);
    await expect(page.getByTestId("case-row")).toHaveCount(2);

    // The journeys share one database: the flags go, so later journeys count their own (the checks stay).
    for (const id of flaggedIds) {
      const response = await page.request.post("/api/trpc/steps.unflag", {
        data: { json: { id } },
        headers: { origin: new URL(page.url()).origin },
      });
      expect(response.status()).toBe(200);
    }
  });
});
