import { expect, test } from "@playwright/test";
import { screenshotPath } from "./support/screenshots";

/**
 * A trainer outside DreamGym (here, this script, as verl or TRL would) drives an external run through the
 * environment server that `npm start` runs beside the app, over OpenEnv's HTTP reset/step, policy version after
 * policy version, posting its own loss. The PM watches the run's curves grow and its live sessions; the
 * researcher opens one of its synthetic steps beside the real environment's answer.
 */
const ENV = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 100}`;

async function call<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${ENV}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${path}: ${JSON.stringify(json)}`);
  return json;
}

interface Reply {
  observation: { text: string; available_actions: string[]; instruction: string };
  done: boolean;
  metadata: { episode_id: string; trajectory_id: string };
}

/** A scripted shop agent: search for the instruction, open the first result, buy. */
function choose(o: Reply["observation"], step: number): string {
  if (o.available_actions.some((a) => a.startsWith("search[")))
    return `search[${o.instruction
      .toLowerCase()
      .replace(/[^a-z0-9 ]/g, " ")
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 6)
      .join(" ")}]`;
  const clicks = o.available_actions.filter((a) => a.startsWith("click[") && !/back|prev/i.test(a));
  return step < 2
    ? (clicks[Math.min(step, clicks.length - 1)] ?? "click[Back to Search]")
    : (clicks.at(-1) ?? "click[Buy Now]");
}

async function playEpisode(runId: string, version: number, group: string): Promise<Reply> {
  let reply = await call<Reply>("/reset", { run_id: runId, group, policy_version: version });
  const episodeId = reply.metadata.episode_id;
  const first = reply;
  for (let step = 0; !reply.done && step < 15; step++)
    reply = await call<Reply>("/step", {
      episode_id: episodeId,
      action: { action: choose(reply.observation, step), logprob: -1.2, tokens: 9 },
    });
  return first;
}

test.describe("an external trainer's run", () => {
  test("the PM watches its curves grow and its live sessions; the researcher opens a synthetic step", async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await expect
      .poll(async () => (await fetch(`${ENV}/health`).catch(() => null))?.status ?? 0, { timeout: 60_000 })
      .toBe(200);
    const { run_id: runId } = await call<{ run_id: string }>("/runs", {
      name: "verl GRPO via OpenEnv",
      config: { domain: "shop", method: "dreamgym" },
    });

    // The PM opens the run: an external trainer's, running, nothing played yet.
    await page.goto(`/runs/${runId}`);
    await expect(page.getByRole("heading", { name: "verl GRPO via OpenEnv" })).toBeVisible();
    await expect(page.getByTestId("run-external")).toBeVisible();
    await expect(page.getByTestId("live-count")).toHaveText("0");

    // Policy version 1: a GRPO group of 4 episodes of one task, then the trainer's update and its loss.
    let opened: Reply | undefined;
    for (let g = 0; g < 4; g++) opened = (await playEpisode(runId, 1, "v1-task0")) ?? opened;
    await call(`/runs/${runId}/metrics`, { policy_version: 1, metrics: { loss: 0.52, kl: 0.01 } });
    await expect(page.getByTestId("metric-row")).toHaveCount(1, { timeout: 60_000 });

    // Version 2 starts an episode and pauses: the PM sees it live, with its steps so far.
    const live = await call<Reply>("/reset", { run_id: runId, group: "v2-task0", policy_version: 2 });
    await call<Reply>("/step", {
      episode_id: live.metadata.episode_id,
      action: { action: choose(live.observation, 0) },
    });
    await expect(page.getByTestId("live-count")).toHaveText("1", { timeout: 60_000 });
    await expect(page.getByTestId("live-sessions")).toContainText(live.metadata.episode_id);

    // It finishes, more of version 2 is played: the curves grow a second point and the session is gone.
    let reply = live;
    for (let step = 1; step < 15; step++) {
      reply = await call<Reply>("/step", {
        episode_id: live.metadata.episode_id,
        action: { action: choose(reply.observation, step) },
      });
      if (reply.done) break;
    }
    for (let g = 0; g < 3; g++) await playEpisode(runId, 2, "v2-task0");
    await call(`/runs/${runId}/metrics`, { policy_version: 2, metrics: { loss: 0.41, kl: 0.02 } });
    await expect(page.getByTestId("metric-row")).toHaveCount(2, { timeout: 60_000 });
    await expect(page.getByTestId("live-count")).toHaveText("0", { timeout: 60_000 });
    await expect(page.getByTestId("success-chart")).toBeVisible();
    await page.screenshot({ path: screenshotPath("external-run.png") });

    // Its curriculum heatmap: each task's reward variance per policy version.
    await page.getByRole("link", { name: "Curriculum heatmap" }).click();
    await expect(page.getByTestId("heatmap-meta")).toContainText("× 2 iterations");

    // The researcher opens one of its synthetic steps: the model's reasoning beside the real environment's answer.
    await page.goto(`/trajectories/${opened!.metadata.trajectory_id}`);
    await expect(page.getByTestId("step-position")).toHaveText(/^Step 1 of \d+$/);
    await expect(page.getByTestId("reasoning")).not.toBeEmpty();
    await expect(page.getByTestId("verdict")).toBeVisible();
    await expect(page.getByTestId("demonstrations")).toBeVisible();
  });
});
