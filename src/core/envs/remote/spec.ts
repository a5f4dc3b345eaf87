/**
 * A real environment that runs outside the app (a WebShop or ALFWorld server, WebArena, a team's own product),
 * reached over one of the wire protocols trainers already speak. This file is the registration's contract: what a
 * user gives (URL, protocol, token) and what DreamGym needs to treat the environment as a domain (how its task
 * numbers split into train and test, how long a step may take, how many episodes it takes at once).
 */
import { z } from "zod";
import { DomainName } from "../names";

/**
 * - `openenv-ws`, `openenv-http`: OpenEnv's environment servers (`/ws` messages; `/reset`, `/step`, `/state`).
 * - `agentgym`: AgentGym's generic text environment (`/create`, `/reset {id, data_idx}`, `/step {id, action}`,
 *   `/observation`, `/available_actions`, `/close`), as BabyAI, SciWorld, TextCraft and tool servers shape it.
 * - `agentgym-webshop`, `agentgym-alfworld`: AgentGym's WebShop (`env_idx`, `session_id`) and ALFWorld (`id`, `game`)
 *   servers.
 */
export const REMOTE_PROTOCOLS = [
  "openenv-ws",
  "openenv-http",
  "agentgym",
  "agentgym-webshop",
  "agentgym-alfworld",
] as const;
export type RemoteProtocol = (typeof REMOTE_PROTOCOLS)[number];

export const REMOTE_PROTOCOL_LABELS: Record<RemoteProtocol, string> = {
  "openenv-ws": "OpenEnv over WebSocket",
  "openenv-http": "OpenEnv over HTTP",
  agentgym: "AgentGym (generic text environment)",
  "agentgym-webshop": "AgentGym WebShop",
  "agentgym-alfworld": "AgentGym ALFWorld",
};

/** A range of the environment's own task numbers (AgentGym's data_idx / session_id / game, OpenEnv's seed). */
const TaskRange = z.object({
  first: z.number().int().min(0).describe("the environment's number of this split's task 0"),
  count: z.number().int().min(1).describe("tasks in the split"),
});

export const RemoteEnvSpec = z
  .object({
    name: DomainName.describe("the domain's name in DreamGym"),
    url: z
      .string()
      .url()
      .refine(
        (u) => /^(https?|wss?):\/\//.test(u),
        "the URL must start with http://, https://, ws:// or wss://",
      )
      .describe("the server's base URL, e.g. http://127.0.0.1:36001"),
    protocol: z.enum(REMOTE_PROTOCOLS),
    token: z
      .string()
      .min(1)
      .max(4_096)
      .optional()
      .describe("sent as `Authorization: Bearer <token>` on every request; never shown back"),
    concurrency: z
      .number()
      .int()
      .min(1)
      .max(1_024)
      .default(8)
      .describe("episodes open at once in this environment, across every run of this process"),
    resetTimeoutMs: z.number().int().min(100).max(600_000).default(30_000),
    stepTimeoutMs: z.number().int().min(100).max(600_000).default(30_000),
    downAfterMs: z
      .number()
      .int()
      .min(0)
      .max(3_600_000)
      .default(300_000)
      .describe(
        "how long a failing environment is retried before the run fails, naming it (a restart must fit in it)",
      ),
    maxSteps: z.number().int().min(1).max(500).default(30).describe("steps an episode may take"),
    tasks: z
      .object({ train: TaskRange, test: TaskRange })
      .default({ train: { first: 0, count: 1_000 }, test: { first: 1_000, count: 100 } })
      .describe("which of the environment's task numbers are train tasks and which are held out for test"),
    successReward: z
      .number()
      .default(1)
      .describe(
        "an episode that ends with at least this reward succeeded (where the protocol has no success flag)",
      ),
    instructionPattern: z
      .string()
      .max(500)
      .refine((p) => {
        try {
          new RegExp(p);
          return true;
        } catch {
          return false;
        }
      }, "not a valid regular expression")
      .optional()
      .describe(
        "where the first observation holds the instruction, e.g. `Your task is to: (.*)`; the first group (or the match) is the instruction; the whole first observation when absent and the protocol names none",
      ),
    actionField: z
      .string()
      .min(1)
      .max(100)
      .default("action")
      .describe(
        "OpenEnv: the action model's text field (BrowserGym's `action_str`, a Q&A environment's `answer`); AgentGym always sends `action`",
      ),
    resetFields: z
      .record(z.string(), z.unknown())
      .default({})
      .describe("fields every reset sends besides the task number (e.g. OpenEnv keyword arguments)"),
  })
  .strict();
export type RemoteEnvSpec = z.infer<typeof RemoteEnvSpec>;
export type RemoteEnvSpecInput = z.input<typeof RemoteEnvSpec>;

/** The environment's own number for task `index` of `split`, or why there is none. */
export function remoteTaskNumber(spec: RemoteEnvSpec, split: "train" | "test", index: number): number {
  const range = spec.tasks[split];
  if (!Number.isInteger(index) || index < 0 || index >= range.count)
    throw new RangeError(
      `remote domain "${spec.name}" has ${range.count} ${split} tasks (numbers ${range.first}–${range.first + range.count - 1}); there is no ${split} task ${index}`,
    );
  return range.first + index;
}

/** What one observation of a remote environment says, in DreamGym's terms, whatever its protocol. */
export interface RemoteObservation {
  text: string;
  /** The admissible actions, where the environment lists them. */
  actions?: string[];
  /** The task's instruction, where the protocol says it apart from the observation. */
  instruction?: string;
}

export interface RemoteStepResult {
  observation: RemoteObservation;
  reward: number;
  done: boolean;
  /** Where the protocol says it; else judged from the reward (`successReward`). */
  success?: boolean;
  /** Where the protocol says it (false: the action was not possible). */
  valid?: boolean;
}
