import { Command } from "commander";
import { registerDataCommands } from "./commands/data";
import { registerDomainCommands } from "./commands/domains";
import { registerExperienceCommands } from "./commands/experience";
import { registerRetentionCommands } from "./commands/retention";
import { registerTrainCommands } from "./commands/train";
import { registerUserCommands } from "./commands/users";

const program = new Command()
  .name("dreamgym")
  .description(
    "DreamGym command line: data, replay buffer, experience model. Progress goes to stderr, results to stdout as one JSON line.",
  );

registerDataCommands(program);
registerDomainCommands(program);
registerRetentionCommands(program);
registerExperienceCommands(program);
registerTrainCommands(program);
registerUserCommands(program);

program
  .parseAsync()
  // Native handles (LanceDB) may keep the event loop alive: exit once the output has been flushed, with the code
  // a command set (audit's 1 on a problem).
  .then(() => process.stdout.write("", () => process.exit(process.exitCode ?? 0)))
  .catch((error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`, () =>
      process.exit(1),
    );
  });
