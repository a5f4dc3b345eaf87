import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { Page } from "@playwright/test";
import { createDb } from "@/server/db";
import { migrateDeploy } from "@/server/migrate";
import { launchChromium, quantile, type RunningApp, startApp } from "./appServer";

/**
 * How fast the step view is: the time from pressing → to the next step rendered (p50/p95), and the time to
 * load an episode, on a long (200-step) synthetic episode with real answers and retrieved demonstrations, against
 * a production build started the way `npm start` starts it, on its own fresh data folder.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const TARGET_MS = 50;

const round = (x: number) => Math.round(x * 10) / 10;

function summary(values: number[]) {
  return {
    p50: round(quantile(values, 0.5)),
    p95: round(quantile(values, 0.95)),
    max: round(Math.max(...values)),
  };
}

/** A shop-like page: products in [SEP]-joined fields, as the built-in environment writes them. */
function page(step: number, variant: number): string {
  const products = Array.from({ length: 10 }, (_, i) => {
    const n = (step * 7 + i * 13 + variant * (i % 3 === 0 ? 5 : 0)) % 97;
    return `B00${1000 + n} [SEP] Item ${n} Wireless Earbuds, Fast Charging & Stereo Sound [SEP] $${(10 + n * 1.37).toFixed(2)}`;
  });
  return `Instruction: [SEP] i need wireless earbuds under 90 dollars [SEP] Back to Search [SEP] Page ${step + 1} [SEP] ${products.join(" [SEP] ")}`;
}

/** Writes the benchmark's episode (and a small offline episode its demonstrations point to) into a fresh DB. */
async function seedEpisode(url: string, steps: number): Promise<string> {
  await migrateDeploy(url);
  const db = await createDb(url);
  try {
    const now = new Date();
    await db.task.create({
      data: { id: "bench:ui", domain: "shop", instruction: "i need wireless earbuds under 90 dollars" },
    });
    const buffer = await db.trajectory.create({
      data: { taskId: "bench:ui", domain: "shop", source: "offline", policy: "expert", length: 20 },
    });
    const bufferSteps = Array.from({ length: 20 }, (_, i) => ({
      id: `bench-buffer-${i}`,
      trajectoryId: buffer.id,
      index: i,
      state: page(i, 0),
      action: `click[item ${i}]`,
      nextState: page(i + 1, 0),
      reward: 0,
      done: false,
      indexedAt: now,
    }));
    await db.step.createMany({ data: bufferSteps });
    const episode = await db.trajectory.create({
      data: {
        taskId: "bench:ui",
        domain: "shop",
        source: "synthetic",
        policy: "bench",
        length: steps,
        iteration: 0,
      },
    });
    await db.step.createMany({
      data: Array.from({ length: steps }, (_, i) => ({
        trajectoryId: episode.id,
        index: i,
        state: page(i, 0),
        action: `click[item ${i % 97}]`,
        reasoning: `Demonstration 1 took the same kind of action in a similar state; step ${i} maps its outcome here.`,
        nextState: page(i + 1, i % 2),
        reward: i === steps - 1 ? 1 : 0,
        done: i === steps - 1,
        realNextState: page(i + 1, 0),
        realReward: 0,
        realDone: i === steps - 1,
        realValid: true,
        neighbourIds: Array.from({ length: 8 }, (_, k) => `bench-buffer-${(i + k) % 20}`),
        model: "bench",
        latencyMs: 12,
        indexedAt: now,
      })),
    });
    return episode.id;
  } finally {
    await db.$disconnect();
  }
}

/**
 * Times every step change inside the page: from the keydown to the DOM showing the new step (commit), and to the
 * frame after it (what the eye sees).
 */
async function instrument(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __pressedAt: number; __timings: { commit: number; frame: number }[] };
    w.__timings = [];
    w.__pressedAt = 0;
    window.addEventListener(
      "keydown",
      () => {
        w.__pressedAt = performance.now();
      },
      true,
    );
    const target = document.querySelector("[data-testid=step-position]");
    if (!target) throw new Error("no step position on the page");
    new MutationObserver(() => {
      const pressed = w.__pressedAt;
      if (!pressed) return;
      w.__pressedAt = 0;
      const commit = performance.now() - pressed;
      requestAnimationFrame(() => w.__timings.push({ commit, frame: performance.now() - pressed }));
    }).observe(target, { childList: true, subtree: true, characterData: true });
  });
}

async function stepTimings(page: Page, presses: number) {
  const roundTrips: number[] = [];
  for (let i = 0; i < presses; i++) {
    const t0 = performance.now();
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(
      (n) => (window as unknown as { __timings: unknown[] }).__timings.length >= n,
      i + 1,
      { polling: "raf" },
    );
    roundTrips.push(performance.now() - t0);
  }
  const timings = await page.evaluate(
    () => (window as unknown as { __timings: { commit: number; frame: number }[] }).__timings,
  );
  return { timings, roundTrips };
}

/** The episode query alone, over HTTP as the page makes it: the server's share of the load time. */
async function queryTime(app: RunningApp, episodeId: string): Promise<{ ms: number; bytes: number }> {
  const input = encodeURIComponent(JSON.stringify({ json: { id: episodeId } }));
  const t0 = performance.now();
  const response = await fetch(`${app.base}/api/trpc/trajectories.get?input=${input}`, {
    headers: app.session.headers,
  });
  const body = await response.text();
  if (!response.ok) throw new Error(`trajectories.get answered ${response.status}: ${body.slice(0, 200)}`);
  return { ms: performance.now() - t0, bytes: body.length };
}

async function loadTime(page: Page, url: string, steps: number): Promise<number> {
  const t0 = performance.now();
  await page.goto(url, { waitUntil: "commit" });
  await page
    .getByTestId("step-position")
    .filter({ hasText: `Step 1 of ${steps}` })
    .waitFor();
  return performance.now() - t0;
}

export async function uiStepperBench(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      steps: { type: "string", default: "200" },
      presses: { type: "string", default: "100" },
      loads: { type: "string", default: "5" },
      keep: { type: "boolean", default: false },
    },
  });
  const steps = Number(values.steps);
  const presses = Math.min(Number(values.presses), steps - 1);
  const loads = Number(values.loads);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-bench-ui-"));
  const say = (line: string) => process.stderr.write(`${line}\n`);

  const episodeId = await seedEpisode(`file:${path.join(dataDir, "dreamgym.db")}`, steps);
  say(`wrote a ${steps}-step synthetic episode into ${dataDir}`);
  say("starting the app (builds it first when its sources changed)…");
  const app = await startApp(dataDir);
  const { base } = app;
  const browser = await launchChromium();
  try {
    const url = `${base}/trajectories/${episodeId}`;

    const queries: number[] = [];
    let payloadBytes = 0;
    for (let i = 0; i < loads; i++) {
      const q = await queryTime(app, episodeId);
      queries.push(q.ms);
      payloadBytes = q.bytes;
    }

    const signedIn = { viewport: { width: 1440, height: 900 }, storageState: app.session.storageState };
    const cold = await browser.newContext(signedIn);
    const coldLoad = await loadTime(await cold.newPage(), url, steps);
    await cold.close();

    const context = await browser.newContext(signedIn);
    const page = await context.newPage();
    const warmLoads: number[] = [];
    for (let i = 0; i < loads; i++) warmLoads.push(await loadTime(page, url, steps));

    await instrument(page);
    // A few presses first, so that what is measured is the steady state, not the first render of each panel.
    const { timings: warmup } = await stepTimings(page, 3);
    await page.keyboard.press("Home");
    await page
      .getByTestId("step-position")
      .filter({ hasText: `Step 1 of ${steps}` })
      .waitFor();
    await instrument(page);
    const { timings, roundTrips } = await stepTimings(page, presses);
    const last = await page.getByTestId("step-position").textContent();
    if (last !== `Step ${presses + 1} of ${steps}`)
      throw new Error(`ended on "${last}", expected step ${presses + 1}`);

    const result = {
      bench: "ui-stepper",
      steps,
      presses,
      nextStepMs: summary(timings.map((t) => t.frame)),
      nextStepCommitMs: summary(timings.map((t) => t.commit)),
      nextStepRoundTripMs: summary(roundTrips),
      initialLoadMs: { cold: round(coldLoad), warm: summary(warmLoads) },
      episodeQueryMs: summary(queries),
      episodePayloadKB: Math.round(payloadBytes / 1024),
      targetMs: TARGET_MS,
      meetsTarget: summary(timings.map((t) => t.frame)).p50 < TARGET_MS,
      warmupPresses: warmup.length,
    };
    say(`episode of ${steps} steps, ${presses} presses of →`);
    say(
      `  next step rendered (keydown → frame after commit): p50 ${result.nextStepMs.p50} ms, p95 ${result.nextStepMs.p95} ms`,
    );
    say(
      `  keydown → DOM commit: p50 ${result.nextStepCommitMs.p50} ms, p95 ${result.nextStepCommitMs.p95} ms`,
    );
    say(`  with the browser driver's round trip: p50 ${result.nextStepRoundTripMs.p50} ms`);
    say(
      `  initial episode load: cold ${result.initialLoadMs.cold} ms, warm p50 ${result.initialLoadMs.warm.p50} ms`,
    );
    fs.mkdirSync(path.join(ROOT, "bench", "results"), { recursive: true });
    fs.writeFileSync(
      path.join(ROOT, "bench", "results", "ui-stepper.json"),
      `${JSON.stringify(result, null, 2)}\n`,
    );
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await browser.close();
    await app.stop();
    if (!values.keep) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
