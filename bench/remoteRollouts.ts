/**
 * Rollouts in a real environment that runs outside the app: the helpdesk sample (samples/envs/helpdesk, a Python
 * server in AgentGym's generic shape) answering every request after a fixed latency, played through DreamGym's
 * remote-environment client at several episode limits. The most such an environment can give is limit ÷ latency
 * calls per second (each reset and step is one call; sessions are kept between episodes, so an episode costs its
 * reset and its steps): the ratio says how close the client comes.
 *
 *   npm run bench -- remote-rollouts [--latency-ms 50] [--limits 1,8,32] [--episodes-per-slot 32]
 */
import fs from "node:fs";
import path from "node:path";
import { RemoteEnvSpec } from "@/core/envs/remote/spec";
import { rollout } from "@/core/rollout";
import type { Environment, Observation, StepResult, Task } from "@/core/types";
import { concurrently } from "@/core/util/concurrently";
import { closeIdleSessions, probeTask, RemoteEnvironment } from "@/server/remoteEnv/client";
import { RemoteDomain, remoteTaskId } from "@/server/remoteEnv/remoteDomain";
import { startHelpdesk } from "../samples/envs/helpdesk/launch";

function option(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(name);
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
}

const round = (x: number, digits = 1) => Number(x.toFixed(digits));

/** Counts the calls an environment makes and how long each took (for the concurrency it achieved). */
class Counted implements Environment {
  constructor(
    private readonly inner: Environment,
    private readonly tally: { calls: number; busyMs: number },
  ) {}
  get domain() {
    return this.inner.domain;
  }
  private async timed<T>(call: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await call();
    } finally {
      this.tally.calls++;
      this.tally.busyMs += performance.now() - started;
    }
  }
  reset(task: Task): Promise<Observation> {
    return this.timed(() => this.inner.reset(task));
  }
  step(action: string): Promise<StepResult> {
    return this.timed(() => this.inner.step(action));
  }
  close(): Promise<void> {
    return this.inner.close?.() ?? Promise.resolve();
  }
}

export async function remoteRolloutsBench(args: string[]): Promise<void> {
  const latencyMs = Number(option(args, "--latency-ms", "50"));
  const limits = option(args, "--limits", "1,8,32").split(",").map(Number);
  const perSlot = Number(option(args, "--episodes-per-slot", "32"));
  const server = await startHelpdesk({ latencyMs });
  const rows = [];
  try {
    for (const limit of limits) {
      // A name per limit: the client's episode slots are per environment name.
      const spec = RemoteEnvSpec.parse({
        name: `helpdesk-bench-${limit}`,
        url: server.url,
        protocol: "agentgym",
        concurrency: limit,
        instructionPattern: "Ticket: (.*)",
      });
      const taskCount = Math.max(16, limit * 2);
      const tasks: Task[] = await Promise.all(
        Array.from({ length: taskCount }, async (_, index) => {
          const probed = await probeTask(spec, index);
          return {
            id: remoteTaskId(spec.name, "train", index),
            domain: spec.name,
            instruction: probed.instruction,
            split: "train",
            origin: "seed",
            goal: { remote: { number: index, first: probed.observation, registration: "bench" } },
          } satisfies Task;
        }),
      );
      const tally = { calls: 0, busyMs: 0 };
      const domain = new RemoteDomain(
        spec,
        (s, numberOf) => new Counted(new RemoteEnvironment(s, numberOf), tally),
        tasks,
      );
      const episodes = Math.max(16, limit * perSlot);
      const started = performance.now();
      const played = await concurrently(episodes, limit, (i) =>
        rollout(domain.createEnvironment(), domain.random(i), tasks[i % taskCount] as Task, domain.maxSteps),
      );
      const seconds = (performance.now() - started) / 1000;
      const transitions = played.reduce((n, e) => n + e.steps.length, 0);
      const ceiling = limit / (latencyMs / 1000);
      const row = {
        limit,
        episodes,
        transitions,
        calls: tally.calls,
        seconds: round(seconds, 2),
        callsPerSecond: round(tally.calls / seconds),
        transitionsPerSecond: round(transitions / seconds),
        ratioToLimitOverLatency: round(tally.calls / seconds / ceiling, 2),
        achievedConcurrency: round(tally.busyMs / 1000 / seconds, 1),
      };
      rows.push(row);
      process.stderr.write(
        `remote limit ${limit}: ${row.callsPerSecond} calls/s (${row.ratioToLimitOverLatency} of ${ceiling}/s), ${row.transitionsPerSecond} transitions/s, ${row.achievedConcurrency} in flight\n`,
      );
      await closeIdleSessions(spec.name);
    }
  } finally {
    await server.stop();
  }
  const remote = { environment: "helpdesk sample (AgentGym generic, Python)", latencyMs, rows };
  const out = path.join("bench", "results", "rollouts.json");
  const previous = fs.existsSync(out) ? JSON.parse(fs.readFileSync(out, "utf8")) : {};
  fs.writeFileSync(out, `${JSON.stringify({ ...previous, remote }, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify({ bench: "remote-rollouts", remote })}\n`);
}
