/**
 * The env-server bench's trainer, in a process of its own so that its work does not count as the server's:
 * `sessions` OpenEnv WebSocket sessions at once, each playing whole episodes (at most 15 steps each) with a
 * scripted shop agent until it has taken `steps` steps. Prints one JSON line: every episode's id and steps, and
 * every step's round trip.
 *   tsx bench/envServerClient.ts <base url> <run id> <sessions> <steps>
 */
import WebSocket from "ws";

const [base, runId, sessionsArg, stepsArg] = process.argv.slice(2);
const sessions = Number(sessionsArg ?? 64);
const budget = Number(stepsArg ?? 15);
const MAX_STEPS = 15;

interface Reply {
  type: string;
  data: {
    observation: { text: string; available_actions: string[]; instruction: string };
    done: boolean;
    metadata: { episode_id: string };
    message?: string;
    code?: string;
  };
}

function choose(observation: Reply["data"]["observation"], step: number): string {
  const actions = observation.available_actions;
  if (actions.some((a) => a.startsWith("search["))) {
    const words = observation.instruction
      .toLowerCase()
      .replace(/[^a-z0-9 ]/g, " ")
      .split(/\s+/)
      .filter(Boolean);
    return `search[${words.slice(0, 6).join(" ")}]`;
  }
  const clicks = actions.filter((a) => a.startsWith("click[") && !/back|prev/i.test(a));
  if (clicks.length > 0) return step < 2 ? clicks[Math.min(step, clicks.length - 1)]! : clicks.at(-1)!;
  return actions[step % Math.max(1, actions.length)] ?? "click[Back to Search]";
}

async function session(index: number, rtts: number[], played: { episodeId: string; steps: number }[]) {
  const ws = new WebSocket(`${base!.replace("http", "ws")}/ws`);
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  const waiting: ((r: Reply) => void)[] = [];
  ws.on("message", (raw) => waiting.shift()?.(JSON.parse(raw.toString()) as Reply));
  const call = (message: unknown) =>
    new Promise<Reply>((resolve, reject) => {
      waiting.push((r) =>
        r.type === "error" ? reject(new Error(`${r.data.code}: ${r.data.message}`)) : resolve(r),
      );
      ws.send(JSON.stringify(message));
    });
  let taken = 0;
  for (let e = 0; taken < budget; e++) {
    let reply = await call({
      type: "reset",
      data: { run_id: runId, seed: index * 100 + e, policy_version: 1 },
    });
    const episodeId = reply.data.metadata.episode_id;
    let steps = 0;
    while (!reply.data.done && steps < MAX_STEPS) {
      const started = performance.now();
      reply = await call({
        type: "step",
        data: { action: choose(reply.data.observation, steps), logprob: -1 },
      });
      rtts.push(performance.now() - started);
      steps++;
    }
    played.push({ episodeId, steps });
    taken += steps;
  }
  ws.close();
}

const rtts: number[] = [];
const played: { episodeId: string; steps: number }[] = [];
const started = performance.now();
await Promise.all(Array.from({ length: sessions }, (_, i) => session(i, rtts, played)));
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ seconds, rtts, played })}\n`);
