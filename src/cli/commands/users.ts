import type { Command } from "commander";
import { config } from "@/env";
import { authFor } from "@/server/auth/auth";
import {
  createUser,
  deactivateUser,
  listUsers,
  reactivateUser,
  setPassword,
  setRole,
} from "@/server/auth/users";
import type { Db } from "@/server/db";
import { RoleName } from "@/shared/roles";
import { database, printJson } from "../args";

/** The audit log's actor for changes made on the server's own command line. */
const CLI = "cli";

function role(value: string): RoleName {
  const parsed = RoleName.safeParse(value);
  if (!parsed.success) throw new Error(`--role: "${value}" is not one of ${RoleName.options.join(", ")}`);
  return parsed.data;
}

async function userId(db: Db, email: string): Promise<string> {
  const user = await db.user.findUnique({ where: { email: email.toLowerCase() } });
  if (!user) throw new Error(`no user with email ${email}`);
  return user.id;
}

/**
 * People, from the machine that holds the database: for scripts, and for the admin who lost their password (the
 * Users page does the same for a signed-in admin).
 */
export function registerUserCommands(program: Command) {
  const users = program.command("users").description("people who may sign in, and their roles");
  users
    .command("list")
    .description("list users: name, email, role")
    .action(async () => printJson(await listUsers(await database())));
  users
    .command("add")
    .description("add a user with a password and a role")
    .requiredOption("--email <email>", "their email, which they sign in with")
    .requiredOption("--name <name>", "their name, as reviews and flags show it")
    .requiredOption("--password <password>", "their password (at least 8 characters)")
    .requiredOption("--role <role>", "admin, researcher, annotator or viewer", role)
    .action(async (o: { email: string; name: string; password: string; role: RoleName }) =>
      printJson(await createUser(await database(), config(), o, CLI)),
    );
  users
    .command("role")
    .description("change a user's role (takes effect on their next request)")
    .requiredOption("--email <email>", "whose role")
    .requiredOption("--role <role>", "admin, researcher, annotator or viewer", role)
    .action(async (o: { email: string; role: RoleName }) => {
      const db = await database();
      printJson(await setRole(db, await userId(db, o.email), o.role, CLI));
    });
  users
    .command("password")
    .description("set a user's password and sign them out everywhere")
    .requiredOption("--email <email>", "whose password")
    .requiredOption("--password <password>", "the new password (at least 8 characters)")
    .action(async (o: { email: string; password: string }) => {
      const db = await database();
      await setPassword(db, config(), await userId(db, o.email), o.password, CLI);
      printJson({ ok: true, email: o.email.toLowerCase() });
    });
  users
    .command("deactivate")
    .description("deactivate a user: their sessions and tokens stop working and they cannot sign in")
    .requiredOption("--email <email>", "whom")
    .option("--reason <reason>", "why, as the Users page and audit log show it")
    .action(async (o: { email: string; reason?: string }) => {
      const db = await database();
      printJson(await deactivateUser(db, await userId(db, o.email), CLI, o.reason));
    });
  users
    .command("reactivate")
    .description("let a deactivated user sign in again")
    .requiredOption("--email <email>", "whom")
    .action(async (o: { email: string }) => {
      const db = await database();
      printJson(await reactivateUser(db, await userId(db, o.email), CLI));
    });
  users
    .command("token")
    .description(
      "sign in as a user and print the session token, for `Authorization: Bearer` (trainers, scripts, the " +
        "environment server)",
    )
    .requiredOption("--email <email>", "who signs in")
    .requiredOption("--password <password>", "their password")
    .action(async (o: { email: string; password: string }) => {
      const { token } = await authFor(await database()).api.signInEmail({
        body: { email: o.email, password: o.password },
      });
      printJson({ token });
    });
}
