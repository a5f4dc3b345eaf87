import type { Command } from "commander";
import { REAL_DOMAIN_NAMES } from "@/core/envs/names";
import { OpenAIPolicy } from "@/core/policy/openaiPolicy";
import { DEFAULT_IMPORT_FORMAT, IMPORT_FORMATS, type ImportFormat } from "@/core/trajectories/formats";
import { SPLITS, type Split } from "@/core/types";
import { config } from "@/env";
import { auditStores } from "@/server/audit/audit";
import { collectOffline } from "@/server/collect/collectOffline";
import { seedDemoIfEmpty } from "@/server/demo/seedDemo";
import { createLlm } from "@/server/experience/backends";
import { loadRealDomain } from "@/server/remoteEnv/load";
import { reconcile } from "@/server/replay/reconcile";
import { withReplayBuffer } from "@/server/replay/sharedReplayBuffer";
import { indexPending, rebuildIndex } from "@/server/replay/syncSteps";
import { exportTrajectoriesFile } from "@/server/trajectories/exportTrajectories";
import { importTrajectoriesFile } from "@/server/trajectories/importTrajectories";
import { measureImportedTrust } from "@/server/trust/importTrust";
import { choice, database, domainName, nonNegativeInt, positiveInt, printJson, probability } from "../args";
import { progressBar } from "../progress";

const POLICIES = ["expert", "random", "noisy"] as const;
/** An LLM agent on the configured endpoint (openai.models.policy), for evaluation only. */
const EVAL_POLICIES = [...POLICIES, "openai"] as const;

function addRolloutOptions(command: Command, policies: readonly string[] = POLICIES) {
  return command
    .requiredOption(
      "--domain <domain>",
      `${REAL_DOMAIN_NAMES.join(", ")}, or a remote domain (npm run cli -- domains)`,
      domainName,
    )
    .requiredOption("--policy <policy>", `one of ${policies.join(", ")}`, choice(policies))
    .requiredOption("--episodes <n>", "number of episodes", positiveInt)
    .option("--epsilon <p>", "probability of a random action for the noisy policy", probability, 0.3)
    .option("--seed <n>", "seed of the random and noisy policies", nonNegativeInt, 0)
    .option("--offset <n>", "first task index", nonNegativeInt, 0);
}

async function indexWithProgress(db: Awaited<ReturnType<typeof database>>, rebuild: boolean) {
  const bar = progressBar(rebuild ? "reindex" : "index", 1);
  const result = await (rebuild ? rebuildIndex : indexPending)(db, {
    onProgress: (done, total) => {
      bar.setTotal(total);
      bar.update(done);
    },
  });
  bar.stop();
  return result;
}

export function registerDataCommands(program: Command) {
  program
    .command("import")
    .description(
      "import trajectories from a JSONL file or an AgentTraj / WebArena-style log (all or nothing; re-importing adds nothing twice)",
    )
    .argument("<file>", "the file: JSONL, one trajectory per line, or another format (--format)")
    .option(
      "--format <format>",
      `one of ${IMPORT_FORMATS.join(", ")} (README "Importing trajectories")`,
      choice(IMPORT_FORMATS),
      DEFAULT_IMPORT_FORMAT,
    )
    .option("--domain <domain>", "file converted trajectories under this domain (agenttraj, webarena)")
    .option("--split <split>", "split of converted trajectories that name none", choice(SPLITS), "train")
    .action(async (file: string, options: { format: ImportFormat; domain?: string; split: Split }) => {
      const db = await database();
      const summary = await importTrajectoriesFile(db, file, file, undefined, options);
      const index = await indexWithProgress(db, false);
      // Each imported domain's experience model against its held-out logs (core/trust), stored for its runs.
      const trust = await measureImportedTrust(db, summary.domains);
      printJson({ ...summary, indexed: index.indexed, trust });
    });

  program
    .command("export")
    .description(
      "write a domain's offline trajectories as JSONL in the import format (e.g. a built-in domain's logs, to import as a domain without an environment)",
    )
    .requiredOption("--domain <domain>", "the domain to export")
    .option("--as <name>", "file the trajectories under this domain name (task ids are prefixed with it)")
    .option("--split <split>", "only this split's tasks", choice(SPLITS))
    .requiredOption("--out <file>", "the JSONL file to write")
    .action(async (options: { domain: string; as?: string; split?: Split; out: string }) => {
      const db = await database();
      const written = await exportTrajectoriesFile(db, options, options.out);
      printJson({ file: options.out, domain: options.as ?? options.domain, trajectories: written });
    });

  addRolloutOptions(program.command("collect"))
    .description("collect offline trajectories in a real environment, save them and index them")
    .option("--split <split>", "train or test", choice(SPLITS), "train")
    .action(async (options) => {
      const db = await database();
      const bar = progressBar(`collect ${options.domain}/${options.policy}`, options.episodes);
      const summary = await collectOffline(db, options, { onProgress: (done) => bar.update(done) });
      bar.stop();
      const index = await indexWithProgress(db, false);
      printJson({ ...summary, indexed: index.indexed });
    });

  addRolloutOptions(program.command("evaluate"), EVAL_POLICIES)
    .description("evaluate a reference policy in a real environment (nothing is saved)")
    .option("--split <split>", "train or test", choice(SPLITS), "test")
    .action(async (options) => {
      const bar = progressBar(`evaluate ${options.domain}/${options.policy}`, options.episodes);
      const db = await database();
      const agent =
        options.policy === "openai"
          ? await (async () => {
              const domain = await loadRealDomain(db, options.domain, []);
              if (!domain) throw new Error(`domain "${options.domain}" has no real environment`);
              const llm = createLlm(config(), config().openai.models.policy).withLane("policy");
              const policy = new OpenAIPolicy(llm, (task, obs) => domain.candidateActions(task, obs));
              // Episodes overlap up to the endpoint's in-flight limit (results do not depend on it).
              return { policy, name: policy.name, concurrency: config().openai.concurrency };
            })()
          : undefined;
      const summary = await collectOffline(null, options, {
        registry: db,
        onProgress: (done) => bar.update(done),
        ...(agent ? { agent } : {}),
      });
      bar.stop();
      printJson(summary);
    });

  program
    .command("index")
    .description("write steps that the replay buffer does not have yet into LanceDB")
    .action(async () => printJson(await indexWithProgress(await database(), false)));

  program
    .command("reconcile")
    .description(
      "repair drift between the database and LanceDB (rows of deleted steps, steps whose rows are missing, rows stored twice)",
    )
    .action(async () => {
      const db = await database();
      printJson(await withReplayBuffer(db, (store) => reconcile(db, store)));
    });

  program
    .command("audit")
    .description(
      "check, without changing anything, that nothing is lost or stored twice and that LanceDB holds every step once (exit 1 on a problem)",
    )
    .action(async () => {
      const db = await database();
      const report = await withReplayBuffer(db, (store) => auditStores(db, store));
      printJson(report);
      if (report.problems.length) process.exitCode = 1;
    });

  program
    .command("reindex")
    .description("rebuild the replay buffer from the database (needed after changing the embedder)")
    .action(async () => printJson(await indexWithProgress(await database(), true)));

  program
    .command("seed")
    .description("seed the demo data when the database is empty")
    .action(async () => {
      const db = await database();
      const seeded = await seedDemoIfEmpty(db, (line) => process.stderr.write(`${line}\n`));
      const index = await indexWithProgress(db, false);
      printJson({ seeded, indexed: index.indexed });
    });
}
