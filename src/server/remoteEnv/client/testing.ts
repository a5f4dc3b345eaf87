/** What the client tests share: a registration for a fake server, a task, and an episode played to its end. */
import { RemoteEnvSpec, type RemoteEnvSpecInput, type RemoteProtocol } from "@/core/envs/remote/spec";
import type { StepResult, Task } from "@/core/types";
import type { FakeEnvServer } from "./fakeEnvFixture";
import type { RemoteEnvironment } from "./remoteEnvironment";

/** Where each protocol lives on the fake server. */
export const FAKE_BASES: Record<RemoteProtocol, string> = {
  "openenv-ws": "/openenv",
  "openenv-http": "/openenv",
  agentgym: "/agentgym",
  "agentgym-webshop": "/webshop",
  "agentgym-alfworld": "/alfworld",
};

let names = 0;

/** A registration of the fake server with small timeouts and a name of its own (slots are per name). */
export function fakeSpec(
  fake: FakeEnvServer,
  protocol: RemoteProtocol,
  over: Partial<RemoteEnvSpecInput> = {},
): RemoteEnvSpec {
  return RemoteEnvSpec.parse({
    name: `fake-${protocol}-${names++}`,
    url: `${fake.url}${FAKE_BASES[protocol]}`,
    protocol,
    concurrency: 4,
    resetTimeoutMs: 300,
    stepTimeoutMs: 300,
    downAfterMs: 3_000,
    ...over,
  });
}

export function task(index: number, split: "train" | "test" = "train"): Task {
  return { id: `fake:${split}:${index}`, domain: "fake", instruction: "", split, origin: "seed" };
}

/** Task `fake:train:i` is the environment's number 100 + i: numbers differ from indexes, as they usually do. */
export const numberOf = (t: Task) => 100 + Number(t.id.split(":")[2]);

/** Plays forward, forward, finish: a success with reward 1. */
export async function playToEnd(env: RemoteEnvironment, t: Task = task(0)): Promise<StepResult[]> {
  await env.reset(t);
  const results: StepResult[] = [];
  for (const action of ["forward", "forward", "finish"]) results.push(await env.step(action));
  return results;
}
