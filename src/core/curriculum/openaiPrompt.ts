/**
 * The task generator's prompt: the seed task (instruction and hidden goal), the domain's goal format and
 * constraints, and how many variations to write. The reply is one JSON object {"goals": [...]}; each goal is
 * checked on its own afterwards, so the reply schema accepts any items and one bad goal never costs the others.
 */
import { z } from "zod";
import type { ChatMessage } from "../llm";
import type { Task } from "../types";

/** Domain knowledge for the prompt: the goal's fields and the rules a valid goal of the seed's kind obeys. */
export interface DomainPromptContext {
  goalFormat: string;
  constraints: string;
}

export const VariationReply = z.object({
  goals: z.array(z.unknown(), { error: 'expected "goals" to be an array of goal objects' }),
});
export type VariationReply = z.infer<typeof VariationReply>;

const SYSTEM = [
  "You are the curriculum task generator of a reinforcement-learning setup for language agents. The curriculum",
  "picked a seed task on which the agent sometimes succeeds and sometimes fails; you write variations of it.",
  "A variation keeps the seed task's action types (the same kind of interaction) and changes its constraints or",
  "its goal, so it is a new task about as hard as the seed or a little harder.",
  "You write hidden goals, not instructions: the environment scores the agent against the goal, and the",
  "instruction is written from it. A goal that breaks a constraint is discarded.",
  'Reply with one JSON object and nothing else: {"goals": [<goal>, <goal>, ...]}',
].join("\n");

export function buildVariationPrompt(
  parent: Task,
  goal: unknown,
  count: number,
  context: DomainPromptContext,
) {
  const user = [
    `## Domain\n${parent.domain}`,
    `## Seed task\ninstruction: ${parent.instruction}\ngoal: ${JSON.stringify(goal)}`,
    `## Goal format\n${context.goalFormat}`,
    `## Constraints\n${context.constraints}`,
    `## Write\n${count} variation${count === 1 ? "" : "s"} of the seed task, as ${count} complete goal${count === 1 ? "" : "s"} in {"goals": [...]}.`,
  ].join("\n\n");
  const messages: ChatMessage[] = [
    { role: "system", content: SYSTEM },
    { role: "user", content: user },
  ];
  return messages;
}

export function variationRepair(count: number) {
  return (original: ChatMessage[], reply: string, error: string): ChatMessage[] => [
    ...original,
    { role: "assistant", content: reply },
    {
      role: "user",
      content: `Your reply could not be used: ${error}. Reply again with only the JSON object {"goals": [...]} holding ${count} goal${count === 1 ? "" : "s"}.`,
    },
  ];
}
