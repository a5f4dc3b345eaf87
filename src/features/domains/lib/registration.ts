import {
  REMOTE_PROTOCOLS,
  RemoteEnvSpec,
  type RemoteEnvSpecInput,
  type RemoteProtocol,
} from "@/core/envs/remote/spec";

/** The register form's fields as typed: text, so that a cleared field means "the default". */
export interface RegistrationForm {
  name: string;
  url: string;
  protocol: RemoteProtocol;
  token: string;
  concurrency: string;
  maxSteps: string;
  trainFirst: string;
  trainCount: string;
  testFirst: string;
  testCount: string;
  instructionPattern: string;
  successReward: string;
  resetTimeoutMs: string;
  stepTimeoutMs: string;
  downAfterMs: string;
}

/** The schema's own defaults, so that the form shows what a registration without them gets. */
export const DEFAULTS = RemoteEnvSpec.parse({ name: "x", url: "http://x", protocol: REMOTE_PROTOCOLS[0] });

export function emptyForm(): RegistrationForm {
  const { tasks } = DEFAULTS;
  return {
    name: "",
    url: "",
    protocol: "agentgym",
    token: "",
    concurrency: String(DEFAULTS.concurrency),
    maxSteps: String(DEFAULTS.maxSteps),
    trainFirst: String(tasks.train.first),
    trainCount: String(tasks.train.count),
    testFirst: String(tasks.test.first),
    testCount: String(tasks.test.count),
    instructionPattern: "",
    successReward: String(DEFAULTS.successReward),
    resetTimeoutMs: String(DEFAULTS.resetTimeoutMs),
    stepTimeoutMs: String(DEFAULTS.stepTimeoutMs),
    downAfterMs: String(DEFAULTS.downAfterMs),
  };
}

/** A number field: absent when blank; what is not a number is sent as typed, for the server to name it. */
function numberOf(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : trimmed;
}

/**
 * The registration the form asks for. Blank fields are left out, so the server's defaults apply; a task range
 * with a blank part takes that part from the defaults. The server validates and says what is wrong.
 */
export function toRegistration(form: RegistrationForm): RemoteEnvSpecInput {
  const optional: Record<string, unknown> = {
    token: form.token === "" ? undefined : form.token,
    concurrency: numberOf(form.concurrency),
    maxSteps: numberOf(form.maxSteps),
    successReward: numberOf(form.successReward),
    resetTimeoutMs: numberOf(form.resetTimeoutMs),
    stepTimeoutMs: numberOf(form.stepTimeoutMs),
    downAfterMs: numberOf(form.downAfterMs),
    instructionPattern: form.instructionPattern.trim() === "" ? undefined : form.instructionPattern,
  };
  const range = [form.trainFirst, form.trainCount, form.testFirst, form.testCount];
  if (range.some((v) => v.trim() !== "")) {
    const { train, test } = DEFAULTS.tasks;
    optional.tasks = {
      train: {
        first: numberOf(form.trainFirst) ?? train.first,
        count: numberOf(form.trainCount) ?? train.count,
      },
      test: { first: numberOf(form.testFirst) ?? test.first, count: numberOf(form.testCount) ?? test.count },
    };
  }
  const given = Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined));
  // The fields keep the types the server checks; a mistyped one reaches it as typed and is named there.
  return {
    name: form.name.trim(),
    url: form.url.trim(),
    protocol: form.protocol,
    ...given,
  } as RemoteEnvSpecInput;
}
