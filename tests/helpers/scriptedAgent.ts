/**
 * A scripted LLM agent for the fake OpenAI server: it reads the actions the policy prompt lists and, in the shop,
 * searches, opens the first result and buys it. Enough to drive whole real episodes through the openai policy.
 */
import { type FakeHandler, type FakeRequest, okJson } from "./fakeOpenAIServer";

/** The actions the prompt lists, as a model would read them. */
export function listedActions(request: Pick<FakeRequest, "body">): string[] {
  const prompt = String(request.body.messages?.at(-1)?.content ?? "");
  return (prompt.split("## Actions you can take\n")[1] ?? "")
    .split("\n")
    .filter((l) => l.startsWith("- "))
    .map((l) => l.slice(2));
}

export const firstResultShopper: FakeHandler = (request) => {
  const actions = listedActions(request);
  const pick =
    actions.find((a) => a.toLowerCase() === "click[buy now]") ??
    actions.find((a) => /^click\[b[0-9a-z]{7}\]$/i.test(a)) ??
    actions.find((a) => a.startsWith("search[")) ??
    actions[0];
  return okJson({ thought: "go on", action: pick });
};
