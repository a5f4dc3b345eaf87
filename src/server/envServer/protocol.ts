/**
 * The environment server's wire formats, one zod schema each: OpenEnv's (WebSocket messages, HTTP reset/step) and
 * the external-run API. `/schema` serves the JSON Schemas made from these, so the documentation cannot drift from
 * what is checked. AgentGym's bodies are in agentgymProtocol.ts.
 */
import { z } from "zod";
import { DomainName } from "@/core/envs/names";
import { SPLITS } from "@/core/types";
import { displayName } from "@/shared/names";

/** Where an episode happens: the built-in real environment, or the experience model with the replay buffer. */
export const ENV_MODES = ["real", "synthetic"] as const;
export type EnvMode = (typeof ENV_MODES)[number];

const Meta = {
  /** The trainer's own bookkeeping, stored nowhere and echoed nowhere; OpenEnv clients send it with every action. */
  metadata: z.record(z.string(), z.unknown()).optional().describe("OpenEnv's free-form metadata; ignored"),
};

/** The longest action line the server plays; a longer one is an invalid action (its start is recorded). */
export const MAX_ACTION_CHARS = 2_000;

/**
 * What an agent does: one action line in the domain's grammar, with what the trainer knows about it. Fields the
 * server does not know are ignored, as OpenEnv's servers ignore them; the ones it knows are checked.
 */
export const Action = z.object({
  action: z
    .string()
    .max(MAX_ACTION_CHARS)
    .describe(
      "one action in the domain's grammar: search[...] / click[...] (shop), a command (household). An empty or unparseable one (an LLM reply with no action) is an invalid action: the state is unchanged, reward 0.0, valid false, and the step counts",
    ),
  logprob: z
    .number()
    .finite()
    .optional()
    .describe("log-probability of the action under the trainer's policy"),
  tokens: z.number().int().min(0).optional().describe("tokens the policy generated for this action"),
  ...Meta,
});
export type Action = z.infer<typeof Action>;

/** The action's companions, checked apart from the action itself (which is played whatever it is). */
export const ActionFields = Action.omit({ action: true });

/**
 * How an episode starts. Everything is optional: with no task id, task address or seed, the curriculum of the run
 * hands out the next task by task value; resets that name the same group get the same task (a GRPO group). Fields
 * the server does not know are ignored (OpenEnv's servers ignore them too); the ones it knows are checked.
 */
export const ResetData = z
  .object({
    episode_id: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe("your id for the episode (HTTP clients address steps by it); a fresh one when absent"),
    seed: z.number().int().min(0).optional().describe("train task number `seed` of the domain"),
    task_id: z.string().min(1).max(255).optional().describe("a task id, e.g. shop:train:17"),
    split: z
      .enum(SPLITS)
      .optional()
      .describe("with index: task `index` of this split (before seed); test tasks need evaluation: true"),
    index: z.number().int().min(0).optional().describe("with split: the task's number in its split"),
    evaluation: z
      .boolean()
      .optional()
      .describe(
        "an evaluation episode: the only kind that may play test-split tasks; recorded with purpose eval, outside the run's training curves and task values",
      ),
    run_id: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe(
        "the external run to record into; the server's default run for the domain and mode when absent",
      ),
    group: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe("a GRPO group key: every reset naming it in the run gets the same task"),
    domain: DomainName.optional().describe(
      "shop, household, office, or a domain imported as logs (synthetic mode only); the run's domain when absent",
    ),
    mode: z.enum(ENV_MODES).optional().describe("real or synthetic; the run's when absent"),
    policy_version: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("the trainer's policy version: the iteration the episode counts in on the run's curves"),
    ...Meta,
  })
  .superRefine((data, ctx) => {
    if ((data.split === undefined) !== (data.index === undefined))
      ctx.addIssue({
        code: "custom",
        path: [data.split === undefined ? "split" : "index"],
        message: "split and index go together: task `index` of `split` (train or test)",
      });
  });
export type ResetData = z.infer<typeof ResetData>;

/** What the agent sees. `reward` and `done` travel beside it, as OpenEnv serialises observations. */
export const ObservationSchema = z.object({
  text: z.string().describe("the state as compact text"),
  available_actions: z.array(z.string()).describe("the admissible actions, where the domain lists them"),
  instruction: z.string().describe("the task's instruction"),
  task_id: z.string(),
  valid: z
    .boolean()
    .describe("false when the last action was not possible: the state is unchanged, reward 0"),
  success: z.boolean().describe("the episode ended with the task done"),
  step: z.number().int().describe("steps taken so far"),
  synthetic: z
    .object({
      reasoning: z.string(),
      confidence: z.number().nullable(),
      neighbours: z.array(z.string()).describe("ids of the replay buffer's demonstrations the model read"),
    })
    .optional()
    .describe("synthetic mode only: how the experience model made this step"),
});
export type ObservationData = z.infer<typeof ObservationSchema>;

export const StepReply = z.object({
  observation: ObservationSchema,
  reward: z
    .number()
    .nullable()
    .describe("the step's reward, always written as a float (0.0, 1.0); null at reset"),
  done: z.boolean(),
  metadata: z
    .object({
      episode_id: z.string().nullable().describe("address HTTP steps and /state by it"),
      trajectory_id: z.string().nullable().describe("the stored trajectory: /trajectories/<id> in the app"),
      run_id: z.string().nullable(),
      task_id: z.string().nullable(),
    })
    .optional(),
});
export type StepReply = z.infer<typeof StepReply>;

export const EpisodeState = z.object({
  episode_id: z.string().nullable(),
  step_count: z.number().int(),
  run_id: z.string().nullable(),
  trajectory_id: z.string().nullable().describe("where the episode is stored: /trajectories/<id> in the app"),
  task_id: z.string().nullable(),
  domain: z.string().nullable(),
  mode: z.enum(ENV_MODES).nullable(),
  policy_version: z.number().int().nullable(),
  done: z.boolean(),
  total_reward: z.number(),
});
export type EpisodeState = z.infer<typeof EpisodeState>;

/** OpenEnv's WebSocket messages, client to server. */
export const WsMessage = z.discriminatedUnion("type", [
  z.object({ type: z.literal("reset"), data: z.record(z.string(), z.unknown()).default({}) }).strict(),
  z.object({ type: z.literal("step"), data: z.unknown().optional() }).strict(),
  z.object({ type: z.literal("state") }).strict(),
  z.object({ type: z.literal("close") }).strict(),
]);

/**
 * OpenEnv's HTTP step: the action under `action`, the episode by its id (the server keeps it between calls). Without
 * an id, the caller's most recent HTTP episode (OpenEnv's HTTP clients send none). Other fields are ignored.
 */
export const HttpStep = z.object({
  episode_id: z
    .string()
    .min(1)
    .max(255)
    .nullish()
    .describe("the episode to step; the caller's most recent HTTP episode when absent or null"),
  // Played whatever it is: a missing or empty action is an invalid action (stepInput.ts).
  action: z.unknown().optional(),
  timeout_s: z.number().positive().optional(),
  request_id: z.string().max(255).optional(),
});

/** Ends an HTTP episode and frees its slot (a live one is recorded as abandoned). */
export const HttpClose = z.object({
  episode_id: z
    .string()
    .min(1)
    .max(255)
    .nullish()
    .describe("the episode to end; the caller's most recent HTTP episode when absent or null"),
});

/** A new external run: the run config's fields (domain, method, experience switches, curriculum) and a name. */
export const CreateExternalRun = z
  .object({
    name: displayName(200).optional(),
    config: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

/** What a trainer reports about one policy version: its losses, KL, anything numeric; merged into the metrics. */
export const TrainerMetrics = z
  .object({
    policy_version: z.number().int().min(0),
    metrics: z.record(z.string(), z.number().finite()),
  })
  .strict();

/**
 * Every schema as JSON Schema: `/schema` serves action, observation and state only, the three keys OpenEnv's
 * clients accept there; `/schemas` adds close, reset, external run and trainer metrics.
 */
export function jsonSchemas() {
  const io = { io: "input" as const, unrepresentable: "any" as const };
  return {
    action: z.toJSONSchema(Action, io),
    observation: z.toJSONSchema(StepReply, io),
    state: z.toJSONSchema(EpisodeState, io),
    close: z.toJSONSchema(HttpClose, io),
    reset: z.toJSONSchema(ResetData, io),
    external_run: z.toJSONSchema(CreateExternalRun, io),
    trainer_metrics: z.toJSONSchema(TrainerMetrics, io),
  };
}
