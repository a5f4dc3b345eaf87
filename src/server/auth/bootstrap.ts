import crypto from "node:crypto";
import type { Config } from "@/env";
import type { Db } from "../db";
import type { RoleName } from "./access";
import { createAuth } from "./auth";

/** The demo data's people, one per working role; their password is in the README (turn off: DREAMGYM_DEMO_USERS=0). */
export const DEMO_PASSWORD = "dreamgym-demo";
export const DEMO_USERS: { email: string; name: string; role: RoleName }[] = [
  { email: "researcher@demo.local", name: "Rosa Researcher", role: "researcher" },
  { email: "annotator@demo.local", name: "Ana Annotator", role: "annotator" },
  { email: "viewer@demo.local", name: "Pat Viewer", role: "viewer" },
];
const DEFAULT_ADMIN = "admin@dreamgym.local";

export interface NewUser {
  email: string;
  name: string;
  password: string;
  role: RoleName;
}

/** Adds a person with a password and a role through Better Auth (it hashes the password and checks the email). */
export async function addUser(db: Db, settings: Config, user: NewUser): Promise<{ id: string }> {
  const { user: created } = await createAuth(db, settings).api.createUser({
    body: { email: user.email, name: user.name, password: user.password, role: user.role },
  });
  return { id: created.id };
}

/**
 * The first admin of a database without one: DREAMGYM_ADMIN_EMAIL / DREAMGYM_ADMIN_PASSWORD when set, else
 * admin@dreamgym.local with a random password printed this once (`npm run cli -- users password` sets a new one).
 */
export async function ensureFirstAdmin(
  db: Db,
  settings: Config,
  log: (line: string) => void,
): Promise<{ email: string; password?: string } | null> {
  const admins = await db.user.count({ where: { role: { contains: "admin" } } });
  if (admins > 0) return null;
  const email = settings.auth.adminEmail ?? DEFAULT_ADMIN;
  const password = settings.auth.adminPassword ?? crypto.randomBytes(12).toString("base64url");
  const existing = await db.user.findUnique({ where: { email } });
  if (existing) {
    // A person the admin address already belongs to becomes the admin; their password stays theirs.
    await db.user.update({ where: { email }, data: { role: "admin" } });
    log(`made ${email} the admin`);
    return { email };
  }
  await addUser(db, settings, { email, name: "Admin", password, role: "admin" });
  if (settings.auth.adminPassword) log(`first admin ${email} (password from DREAMGYM_ADMIN_PASSWORD)`);
  else log(`first admin: ${email}, password ${password} (shown once; change it on the Users page)`);
  return { email, ...(settings.auth.adminPassword ? {} : { password }) };
}

/** The demo people, added with the demo data when it is seeded into an empty database (start.ts). */
export async function ensureDemoUsers(
  db: Db,
  settings: Config,
  log: (line: string) => void,
): Promise<number> {
  if (!settings.demo.users) return 0;
  let added = 0;
  for (const demo of DEMO_USERS) {
    if (await db.user.findUnique({ where: { email: demo.email } })) continue;
    await addUser(db, settings, { ...demo, password: DEMO_PASSWORD });
    added++;
  }
  if (added > 0) log(`demo users: ${DEMO_USERS.map((u) => `${u.email} (${u.role})`).join(", ")}`);
  return added;
}
