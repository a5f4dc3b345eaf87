import { type Command, InvalidArgumentError } from "commander";
import { REAL_DOMAIN_LABELS, REAL_DOMAIN_NAMES } from "@/core/envs/names";
import { REMOTE_PROTOCOLS } from "@/core/envs/remote/spec";
import { listDomains } from "@/server/domains/domains";
import { checkRemoteDomain, registerRemoteDomain, removeRemoteDomain } from "@/server/remoteEnv/registry";
import { choice, database, domainName, positiveInt, printJson } from "../args";

/** "first:count" (e.g. 1000:100): a range of the environment's own task numbers. */
function taskRange(value: string): { first: number; count: number } {
  const m = /^(\d+):(\d+)$/.exec(value);
  if (!m || Number(m[2]) < 1)
    throw new InvalidArgumentError(`expected FIRST:COUNT, e.g. 1000:100, got "${value}"`);
  return { first: Number(m[1]), count: Number(m[2]) };
}

/** "key=json" (a JSON value, or else the text itself): a field every reset sends. */
function resetField(value: string, previous: Record<string, unknown> = {}): Record<string, unknown> {
  const at = value.indexOf("=");
  if (at < 1) throw new InvalidArgumentError(`expected KEY=VALUE, got "${value}"`);
  const raw = value.slice(at + 1);
  let parsed: unknown = raw;
  try {
    parsed = JSON.parse(raw);
  } catch {
    // Plain text.
  }
  return { ...previous, [value.slice(0, at)]: parsed };
}

export function registerDomainCommands(program: Command) {
  const domains = program
    .command("domains")
    .description(
      "the domains runs can name: built in, remote (real environments outside the app) and imported",
    )
    .action(async () => printJson(await listDomains(await database())));

  domains
    .command("add")
    .description(
      "register a real environment that runs outside the app (an OpenEnv or AgentGym server) as a domain; it is checked first",
    )
    .argument("<name>", "the domain's name (lowercase letters, digits, - and _)", domainName)
    .requiredOption("--url <url>", "the server's base URL, e.g. http://127.0.0.1:36001")
    .requiredOption(
      "--protocol <protocol>",
      `one of ${REMOTE_PROTOCOLS.join(", ")}`,
      choice(REMOTE_PROTOCOLS),
    )
    .option("--token <token>", "sent as a bearer token (DREAMGYM_REMOTE_TOKEN is read when this is absent)")
    .option("--concurrency <n>", "episodes open at once in the environment", positiveInt)
    .option("--max-steps <n>", "steps an episode may take", positiveInt)
    .option("--step-timeout-ms <n>", "how long a step may take", positiveInt)
    .option("--reset-timeout-ms <n>", "how long a reset may take", positiveInt)
    .option(
      "--down-after-ms <n>",
      "how long a failing environment is retried before a run fails",
      positiveInt,
    )
    .option("--train <first:count>", "the environment's train task numbers (default 0:1000)", taskRange)
    .option("--test <first:count>", "its held-out test task numbers (default 1000:100)", taskRange)
    .option("--success-reward <r>", "an episode ending with at least this reward succeeded", Number)
    .option(
      "--instruction-pattern <regex>",
      "where the first observation holds the instruction, e.g. 'Task: (.*)'",
    )
    .option("--reset-field <key=value>", "a field every reset sends (repeatable)", resetField)
    .option("--action-field <name>", "OpenEnv: the action model's text field (default action)")
    .option("--allow-unhealthy", "keep it even if it does not answer now")
    .option("--replace", "replace a registration of the same name")
    .action(async (name: string, o) => {
      const token = o.token ?? process.env.DREAMGYM_REMOTE_TOKEN;
      const input = {
        name,
        url: o.url,
        protocol: o.protocol,
        ...(token ? { token } : {}),
        ...(o.concurrency ? { concurrency: o.concurrency } : {}),
        ...(o.maxSteps ? { maxSteps: o.maxSteps } : {}),
        ...(o.stepTimeoutMs ? { stepTimeoutMs: o.stepTimeoutMs } : {}),
        ...(o.resetTimeoutMs ? { resetTimeoutMs: o.resetTimeoutMs } : {}),
        ...(o.downAfterMs ? { downAfterMs: o.downAfterMs } : {}),
        ...(o.train || o.test
          ? {
              tasks: {
                train: o.train ?? { first: 0, count: 1_000 },
                test: o.test ?? { first: 1_000, count: 100 },
              },
            }
          : {}),
        ...(o.successReward !== undefined ? { successReward: o.successReward } : {}),
        ...(o.instructionPattern ? { instructionPattern: o.instructionPattern } : {}),
        ...(o.resetField ? { resetFields: o.resetField } : {}),
        ...(o.actionField ? { actionField: o.actionField } : {}),
      };
      const { domain, health } = await registerRemoteDomain(await database(), input, {
        allowUnhealthy: o.allowUnhealthy === true,
        replace: o.replace === true,
      });
      printJson({ registered: domain.name, url: domain.url, protocol: domain.protocol, health });
    });

  domains
    .command("check")
    .description("ask a remote domain's environment whether it answers, and show its train task 0")
    .argument("<name>", "the remote domain", domainName)
    .action(async (name: string) => {
      const health = await checkRemoteDomain(await database(), name);
      printJson({ domain: name, ...health });
      if (!health.ok) process.exitCode = 1;
    });

  domains
    .command("remove")
    .description("remove a remote domain's registration (its runs and trajectories stay)")
    .argument("<name>", "the remote domain", domainName)
    .requiredOption("--yes", "confirm")
    .action(async (name: string) => {
      await removeRemoteDomain(await database(), name);
      printJson({ removed: name });
    });

  domains.addHelpText(
    "after",
    `\nBuilt in: ${REAL_DOMAIN_NAMES.map((d) => REAL_DOMAIN_LABELS[d]).join(", ")}.`,
  );
}
