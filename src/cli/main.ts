import { Command, InvalidArgumentError } from "commander";
import { config } from "@/env";
import { collectOffline } from "@/server/collect/collectOffline";
import { getDb } from "@/server/db";
import { seedDemoIfEmpty } from "@/server/demo/seedDemo";
import { migrateDeploy } from "@/server/migrate";
import { importTrajectoriesFile } from "@/server/trajectories/importTrajectories";
import { progressBar } from "./progress";

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  return n;
}

function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new InvalidArgumentError(`expected an integer >= 0, got "${value}"`);
  return n;
}

function probability(value: string): number {
  const n = Number(value);
  if (!(n >= 0 && n <= 1)) throw new InvalidArgumentError(`expected a number in [0, 1], got "${value}"`);
  return n;
}

function choice<T extends string>(options: readonly T[]) {
  return (value: string): T => {
    if (!(options as readonly string[]).includes(value)) {
      throw new InvalidArgumentError(`expected one of ${options.join(", ")}, got "${value}"`);
    }
    return value as T;
  };
}

const DOMAINS = ["shop", "household"] as const;
const POLICIES = ["expert", "random", "noisy"] as const;
const SPLITS = ["train", "test"] as const;

function printJson(value: unknown) {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

async function database() {
  await migrateDeploy(config().databaseUrl);
  return getDb();
}

const program = new Command()
  .name("dreamgym")
  .description(
    "DreamGym command line: data, training, evaluation. Progress goes to stderr, results to stdout as JSON.",
  );

program
  .command("import")
  .description("import trajectories from a JSONL file (all or nothing; re-importing adds nothing twice)")
  .argument("<file>", "JSONL file, one trajectory per line")
  .action(async (file: string) => {
    const db = await database();
    printJson(await importTrajectoriesFile(db, file));
  });

function addRolloutOptions(command: Command) {
  return command
    .requiredOption("--domain <domain>", `one of ${DOMAINS.join(", ")}`, choice(DOMAINS))
    .requiredOption("--policy <policy>", `one of ${POLICIES.join(", ")}`, choice(POLICIES))
    .requiredOption("--episodes <n>", "number of episodes", positiveInt)
    .option("--epsilon <p>", "probability of a random action for the noisy policy", probability, 0.3)
    .option("--seed <n>", "seed of the random and noisy policies", nonNegativeInt, 0)
    .option("--offset <n>", "first task index", nonNegativeInt, 0);
}

addRolloutOptions(program.command("collect"))
  .description("collect offline trajectories in a real environment and save them")
  .option("--split <split>", "train or test", choice(SPLITS), "train")
  .action(async (options) => {
    const db = await database();
    const bar = progressBar(`collect ${options.domain}/${options.policy}`, options.episodes);
    const summary = await collectOffline(db, options, { onProgress: (done) => bar.update(done) });
    bar.stop();
    printJson(summary);
  });

addRolloutOptions(program.command("evaluate"))
  .description("evaluate a reference policy in a real environment (nothing is saved)")
  .option("--split <split>", "train or test", choice(SPLITS), "test")
  .action(async (options) => {
    const bar = progressBar(`evaluate ${options.domain}/${options.policy}`, options.episodes);
    const summary = await collectOffline(null, options, { onProgress: (done) => bar.update(done) });
    bar.stop();
    printJson(summary);
  });

program
  .command("seed")
  .description("seed the demo data when the database is empty")
  .action(async () => {
    const db = await database();
    const seeded = await seedDemoIfEmpty(db, (line) => process.stderr.write(`${line}\n`));
    printJson({ seeded });
  });

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
