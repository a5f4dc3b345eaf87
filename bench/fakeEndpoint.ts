/**
 * A local OpenAI-protocol endpoint for the rollouts bench, in its own process as a real server would be (so its
 * work does not count against the client's core): every chat completion is answered after a fixed latency with
 * the same valid experience-model reply. Prints its URL on the first line of stdout.
 *   tsx bench/fakeEndpoint.ts <latencyMs>
 */
import { okJson, startFakeOpenAI } from "../tests/helpers/fakeOpenAIServer";

const latencyMs = Number(process.argv[2] ?? "200");
let inFlight = 0;
let maxInFlight = 0;
const server = await startFakeOpenAI(async (request) => {
  if (request.path.endsWith("/stats")) return { kind: "json", body: { maxInFlight } };
  if (request.path.endsWith("/reset")) {
    maxInFlight = 0;
    return { kind: "json", body: { ok: true } };
  }
  inFlight++;
  maxInFlight = Math.max(maxInFlight, inFlight);
  await new Promise((resolve) => setTimeout(resolve, latencyMs));
  inFlight--;
  return okJson(
    {
      reasoning: "The page does not change: the demonstrations show no effect of this action here.",
      next_state: "You are on the search page. [Search]",
      reward: 0,
      done: false,
      success: false,
      valid: true,
    },
    { usage: { prompt_tokens: 900, completion_tokens: 60 } },
  );
});
process.stdout.write(`${server.url}\n`);
process.on("SIGTERM", () => {
  void server.close().then(() => process.exit(0));
});
