import fs from "node:fs";
import type { Command } from "commander";
import { BACKENDS } from "@/core/backends";
import { REAL_DOMAIN_NAMES } from "@/core/envs/names";
import { measureFidelity } from "@/core/experience/fidelityRun";
import type { ExperienceSettings, JudgeScores } from "@/core/experience/types";
import { HELD_OUT_TASKS, heldOutTask, VALIDATION_OFFSET } from "@/core/train/heldOut";
import { config } from "@/env";
import { createExperienceModel, createJudge, createLlm, createTeacher } from "@/server/experience/backends";
import { SFT_EXPORT_SETTINGS, sftRecords } from "@/server/experience/exportSft";
import { loadOfflineMemory } from "@/server/experience/loadOfflineMemory";
import { writeTeacherTraces } from "@/server/experience/teacherTraces";
import { loadRealDomain } from "@/server/remoteEnv/load";
import { remoteSpec } from "@/server/remoteEnv/registry";
import { withReplayBuffer } from "@/server/replay/sharedReplayBuffer";
import { indexPending } from "@/server/replay/syncSteps";
import { ANNOTATION_STATUSES, type AnnotationStatus, REVIEWED_STATUSES } from "@/shared/enums";
import { choice, database, domainName, nonNegativeInt, positiveInt, printJson, probability } from "../args";
import { progressBar } from "../progress";

function settingsFrom(options: {
  k: number;
  history: number;
  reasoning: boolean;
  offlineOnly: boolean;
}): ExperienceSettings {
  return {
    k: options.k,
    historyWindow: options.history,
    reasoning: options.reasoning,
    ...(options.offlineOnly ? { sources: ["offline"] } : {}),
  };
}

export function registerExperienceCommands(program: Command) {
  registerFidelity(program);
  registerTeacher(program);
  registerExportSft(program);
}

/** `fidelity`: the experience model against the real environment on held-out transitions. */
function registerFidelity(program: Command) {
  program
    .command("fidelity")
    .description(
      "replay held-out real transitions through the experience model and compare with the real environment",
    )
    .requiredOption(
      "--domain <domain>",
      `${REAL_DOMAIN_NAMES.join(", ")}, or a remote domain (npm run cli -- domains)`,
      domainName,
    )
    .option("--backend <backend>", `experience model backend: ${BACKENDS.join(", ")}`, choice(BACKENDS))
    .option("--transitions <n>", "number of held-out real transitions", positiveInt, 500)
    .option("--k <n>", "demonstrations retrieved per step (0: no replay)", nonNegativeInt, 8)
    .option("--history <n>", "steps of history in the prompt (0: no history)", nonNegativeInt, 4)
    .option("--no-reasoning", "ablate the reasoning trace")
    .option("--all-sources", "retrieve synthetic transitions too (default: offline only)")
    .option("--epsilon <p>", "noise of the behaviour policy producing the real transitions", probability, 0.3)
    .option("--seed <n>", "seed of the behaviour policy", nonNegativeInt, 0)
    .option(
      "--tasks <which>",
      `held-out tasks: ${HELD_OUT_TASKS.join(", ")} (validation: for choosing settings without the test tasks)`,
      choice(HELD_OUT_TASKS),
      "test",
    )
    .option(
      "--judge <n>",
      "also have the LLM judge score this many transitions (openai backend)",
      nonNegativeInt,
      0,
    )
    .action(async (options) => {
      const started = performance.now();
      const db = await database();
      await indexPending(db);
      // A remote environment's held-out tasks are asked of it first: as many as the transitions could need.
      const tasks = Array.from({ length: options.transitions }, (_, i) =>
        options.tasks === "test"
          ? { split: "test" as const, index: i }
          : { split: "train" as const, index: VALIDATION_OFFSET + i },
      );
      const remote = await remoteSpec(db, options.domain);
      const reachable = remote ? tasks.filter((a) => a.index < remote.tasks[a.split].count) : tasks;
      const domain = await loadRealDomain(db, options.domain, reachable);
      if (!domain)
        throw new Error(
          `domain "${options.domain}" has no real environment to measure fidelity against: it is neither built in nor registered as a remote environment`,
        );
      const offline = await db.trajectory.count({ where: { domain: options.domain, source: "offline" } });
      if (offline === 0 && options.k > 0) {
        throw new Error(
          `no offline transitions for domain "${options.domain}" in the replay buffer: run \`npm run cli -- collect --domain ${options.domain} …\` or \`npm run cli -- seed\` first`,
        );
      }
      const settings = settingsFrom({ ...options, offlineOnly: !options.allSources });
      const backend = options.backend ?? config().backends.experience;
      const llm =
        backend === "openai" || options.judge > 0
          ? createLlm(config(), config().openai.models.experience)
          : undefined;
      const model = createExperienceModel(
        config(),
        settings,
        backend,
        llm,
        backend === "embedded" ? await loadOfflineMemory(db, options.domain) : undefined,
      );
      const judge = options.judge > 0 ? createJudge(config(), settings, llm) : undefined;
      const judged: JudgeScores[] = [];
      const bar = progressBar(`fidelity ${options.domain}/${model.name}`, options.transitions);
      const { report } = await withReplayBuffer(db, (store) =>
        measureFidelity(domain, model, store, settings, {
          transitions: options.transitions,
          task: (i) => {
            if (i >= reachable.length)
              throw new Error(
                `remote domain "${options.domain}" registers ${reachable.length} ${options.tasks} tasks, and their episodes gave fewer than ${options.transitions} transitions: ask for fewer (--transitions)`,
              );
            return heldOutTask(domain, options.tasks, i);
          },
          epsilon: options.epsilon,
          seed: options.seed,
          onProgress: (done) => bar.update(done),
          onPrediction: async (input, prediction) => {
            if (judge && judged.length < options.judge) judged.push(await judge.score(input, prediction));
          },
        }),
      );
      bar.stop();
      const mean = (f: (s: JudgeScores) => number) =>
        judged.length ? judged.reduce((a, s) => a + f(s), 0) / judged.length : undefined;
      printJson({
        domain: options.domain,
        backend,
        model: model.name,
        settings,
        ...report,
        ...(judge
          ? {
              judge: {
                transitions: judged.length,
                causal: mean((s) => s.causal),
                diversity: mean((s) => s.diversity),
                informativeness: mean((s) => s.informativeness),
                hallucination: mean((s) => s.hallucination),
              },
            }
          : {}),
        stepsPerSecond: Number((report.transitions / ((performance.now() - started) / 1000)).toFixed(1)),
        seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
        ...(llm ? { usage: llm.usage() } : {}),
      });
    });
}

/** `teacher`: reasoning traces for annotators to review. */
function registerTeacher(program: Command) {
  program
    .command("teacher")
    .description("have the teacher write reasoning traces for offline steps (queued for annotators' review)")
    .option("--domain <domain>", "only this domain")
    .option("--limit <n>", "traces to write", positiveInt, 500)
    .option("--backend <backend>", `teacher backend: ${BACKENDS.join(", ")}`, choice(BACKENDS))
    .option("--k <n>", "demonstrations shown to the teacher", nonNegativeInt, 4)
    .action(async (options) => {
      const db = await database();
      await indexPending(db);
      const settings: ExperienceSettings = {
        k: options.k,
        historyWindow: 4,
        reasoning: true,
        sources: ["offline"],
      };
      const teacher = createTeacher(config(), settings, options.backend);
      const bar = progressBar(`teacher ${teacher.name}`, options.limit);
      const summary = await withReplayBuffer(db, (store) =>
        writeTeacherTraces(
          db,
          store,
          teacher,
          { limit: options.limit, settings, ...(options.domain ? { domain: options.domain } : {}) },
          {
            onProgress: (done) => bar.update(done),
          },
        ),
      );
      bar.stop();
      printJson(summary);
    });
}

/** `export-sft`: reviewed traces as supervised fine-tuning lines. */
function registerExportSft(program: Command) {
  program
    .command("export-sft")
    .description("write the experience model's SFT dataset (chat JSONL: prompt -> reasoning then next state)")
    .requiredOption("--out <file>", "output JSONL file")
    .option("--domain <domain>", "only this domain")
    .option("--reviewed-only", "only traces an annotator accepted or edited (default: all but rejected)")
    .option("--teacher <name>", "only traces of this teacher")
    .option("--k <n>", "demonstrations in each prompt", nonNegativeInt, SFT_EXPORT_SETTINGS.k)
    .option(
      "--history <n>",
      "steps of history in each prompt",
      nonNegativeInt,
      SFT_EXPORT_SETTINGS.historyWindow,
    )
    .action(async (options) => {
      const db = await database();
      await indexPending(db);
      const settings: ExperienceSettings = {
        k: options.k,
        historyWindow: options.history,
        reasoning: true,
        sources: ["offline"],
      };
      // Unreviewed traces too unless asked otherwise; rejected ones never.
      const statuses: Exclude<AnnotationStatus, "rejected">[] = options.reviewedOnly
        ? [...REVIEWED_STATUSES]
        : ANNOTATION_STATUSES.filter((s): s is Exclude<AnnotationStatus, "rejected"> => s !== "rejected");
      const tmp = `${options.out}.tmp-${process.pid}`;
      const out = fs.createWriteStream(tmp, "utf8");
      let records = 0;
      let corrected = 0;
      try {
        await withReplayBuffer(db, async (store) => {
          for await (const record of sftRecords(db, store, {
            statuses,
            settings,
            ...(options.domain ? { domain: options.domain } : {}),
            ...(options.teacher ? { teacher: options.teacher } : {}),
          })) {
            if (!out.write(`${JSON.stringify(record)}\n`))
              await new Promise<void>((r) => out.once("drain", () => r()));
            records++;
            if (record.metadata.corrected) corrected++;
          }
        });
        await new Promise<void>((resolve, reject) =>
          out.end((error?: Error | null) => (error ? reject(error) : resolve())),
        );
        fs.renameSync(tmp, options.out); // a failed export leaves no half-written file behind
      } catch (error) {
        out.destroy();
        fs.rmSync(tmp, { force: true });
        throw error;
      }
      printJson({ out: options.out, records, corrected, statuses });
    });
}
