/**
 * What each openai-backed part's endpoint says when it answers well, as a function of the request alone: the
 * embedder, the policy, the teacher, the judge, the task generator and the experience model.
 */
import { hashString } from "@/core/util/random";
import { type FakeReply, type FakeRequest, okJson } from "./fakeOpenAIServer";

function userMessage(request: FakeRequest): string {
  const user = request.body.messages?.find((m) => m.role === "user");
  return typeof user?.content === "string" ? user.content : "";
}

function systemMessage(request: FakeRequest): string {
  const system = request.body.messages?.find((m) => m.role === "system");
  return typeof system?.content === "string" ? system.content : "";
}

export function isTaskGeneratorRequest(request: FakeRequest): boolean {
  return systemMessage(request).includes("curriculum task generator");
}

/**
 * Two variations of the seed goal in the prompt that the domain's rules accept: a higher budget for a shop goal,
 * another (even, so train) room for a household goal.
 */
export function variationGoals(request: FakeRequest): unknown[] {
  const line = /^goal: (\{.*\})$/m.exec(userMessage(request))?.[1];
  if (line === undefined) throw new Error("the task generator's prompt has no seed goal");
  const goal = JSON.parse(line) as Record<string, unknown>;
  if (typeof goal.priceUpper === "number")
    return [10, 20].map((more) => ({ ...goal, priceUpper: (goal.priceUpper as number) + more }));
  const room = goal.room as { seed: number };
  return [2, 4].map((more) => ({ ...goal, room: { ...room, seed: room.seed + more } }));
}

/**
 * The experience model's answer from the prompt alone: the state stays as it is (without its list of actions),
 * and a hash of the action and the prompt decides whether the episode ends and whether it succeeds, so groups
 * have reward variance and the curriculum has parents to vary.
 */
function experienceReply(request: FakeRequest): FakeReply {
  const prompt = userMessage(request);
  const state = /## Current state\n([\s\S]*?)\n\n## Action/.exec(prompt)?.[1] ?? "";
  const action = /## Action\n(.*)$/.exec(prompt)?.[1] ?? "";
  const h = hashString(`${action}|${prompt.length}`);
  const done = h % 5 === 0;
  return okJson({
    reasoning: `Applying "${action}" here changes nothing visible.`,
    next_state: state.replace(/\nadmissible actions: .*/, ""),
    reward: done && h % 10 === 0 ? 1 : 0,
    done,
    success: done && h % 10 === 0,
    valid: true,
  });
}

export function goodReply(request: FakeRequest): FakeReply {
  if (request.path.endsWith("/embeddings")) {
    const input = request.body.input;
    const inputs = Array.isArray(input) ? input : [input];
    return {
      kind: "json",
      body: {
        object: "list",
        model: "emb",
        data: inputs.map((_, index) => ({ object: "embedding", index, embedding: [0.6, 0.8, 0, 0] })),
      },
    };
  }
  const schema = (request.body.response_format as { json_schema?: { name?: string } } | undefined)
    ?.json_schema?.name;
  if (schema === "agent_action") return okJson({ thought: "buy the first one", action: "click[buy now]" });
  if (schema === "teacher_trace")
    return okJson({ reasoning: "The page shows the product, so clicking it opens it." });
  if (schema === "judge_scores")
    return okJson({
      causal: 2,
      diversity: 1,
      informativeness: 2,
      hallucination: 2,
      // Unique, so that a verdict leads back to the reply it came from.
      rationale: `verdict of reply ${request.index}: the next state follows from the action.`,
    });
  if (isTaskGeneratorRequest(request)) return okJson({ goals: variationGoals(request) });
  return experienceReply(request);
}
