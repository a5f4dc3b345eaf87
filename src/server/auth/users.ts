import type { Config } from "@/env";
import { logAdminAction } from "../audit/adminLog";
import type { Db } from "../db";
import { DEFAULT_ROLE, type RoleName } from "./access";
import { createAuth } from "./auth";
import { addUser, type NewUser } from "./bootstrap";

export interface UserRow {
  id: string;
  name: string;
  email: string;
  role: string;
  createdAt: Date;
  /** Deactivated: cannot sign in, and every session and token of theirs was ended. */
  deactivated: boolean;
  deactivatedReason: string | null;
}

/** Who made a change, for the audit log: an admin's user id, or "cli" for the command line on the server. */
export type Actor = string;

/** Why a change to the people was refused: the message says what and which field. */
export class UserRefused extends Error {
  constructor(
    message: string,
    readonly reason: "not-found" | "exists" | "last-admin" | "self",
  ) {
    super(message);
  }
}

/** A stored user as the Users page shows them (no role yet reads as viewer, as sessions do). */
function toRow(u: {
  id: string;
  name: string;
  email: string;
  role: string | null;
  createdAt: Date;
  banned: boolean | null;
  banReason: string | null;
}): UserRow {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    role: u.role ?? DEFAULT_ROLE,
    createdAt: u.createdAt,
    deactivated: u.banned === true,
    deactivatedReason: u.banned ? u.banReason : null,
  };
}

async function findUser(db: Db, userId: string) {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user) throw new UserRefused(`user ${userId} does not exist`, "not-found");
  return user;
}

/** Refuses a change that would leave nobody able to manage people. */
async function keepAnAdmin(
  db: Db,
  user: { email: string; role: string | null },
  what: string,
): Promise<void> {
  if (user.role !== "admin") return;
  const admins = await db.user.count({ where: { role: "admin", NOT: { banned: true } } });
  if (admins <= 1)
    throw new UserRefused(
      `${what}: ${user.email} is the only admin; make someone else admin first`,
      "last-admin",
    );
}

export async function listUsers(db: Db): Promise<UserRow[]> {
  return (await db.user.findMany({ orderBy: { createdAt: "asc" } })).map(toRow);
}

export async function createUser(db: Db, settings: Config, user: NewUser, actor: Actor): Promise<UserRow> {
  const email = user.email.toLowerCase();
  if (await db.user.findUnique({ where: { email } }))
    throw new UserRefused(`email: ${email} already has an account`, "exists");
  const { id } = await addUser(db, settings, { ...user, email });
  await logAdminAction(db, { actor, action: "user.create", target: id, detail: { email, role: user.role } });
  return toRow(await db.user.findUniqueOrThrow({ where: { id } }));
}

/** A new role takes effect on the person's next request: sessions read the role from the user row. */
export async function setRole(db: Db, userId: string, role: RoleName, actor: Actor): Promise<UserRow> {
  const user = await findUser(db, userId);
  if (role !== "admin") await keepAnAdmin(db, user, "role");
  const updated = await db.user.update({ where: { id: userId }, data: { role } });
  if ((user.role ?? DEFAULT_ROLE) !== role)
    await logAdminAction(db, {
      actor,
      action: "user.role",
      target: userId,
      detail: { email: user.email, from: user.role ?? DEFAULT_ROLE, to: role },
    });
  return toRow(updated);
}

/**
 * Deactivates a person: they cannot sign in, and every session of theirs ends now, so the browser they are signed
 * in with and every bearer token they gave a trainer or script stop working on their next request. Their reviews,
 * flags and runs stay. Reactivating lets them sign in again (old tokens stay ended).
 */
export async function deactivateUser(
  db: Db,
  userId: string,
  actor: Actor,
  reason?: string,
): Promise<UserRow> {
  const user = await findUser(db, userId);
  if (userId === actor) throw new UserRefused("you cannot deactivate yourself; ask another admin", "self");
  await keepAnAdmin(db, user, "deactivate");
  const banReason = reason?.trim() || "deactivated by an admin";
  const [updated] = await db.$transaction([
    db.user.update({ where: { id: userId }, data: { banned: true, banReason, banExpires: null } }),
    db.session.deleteMany({ where: { userId } }),
  ]);
  await logAdminAction(db, {
    actor,
    action: "user.deactivate",
    target: userId,
    detail: { email: user.email, reason: banReason },
  });
  return toRow(updated);
}

export async function reactivateUser(db: Db, userId: string, actor: Actor): Promise<UserRow> {
  const user = await findUser(db, userId);
  const updated = await db.user.update({
    where: { id: userId },
    data: { banned: false, banReason: null, banExpires: null },
  });
  await logAdminAction(db, {
    actor,
    action: "user.reactivate",
    target: userId,
    detail: { email: user.email },
  });
  return toRow(updated);
}

/** Sets a person's password (hashed as at sign-in) and signs them out everywhere. */
export async function setPassword(
  db: Db,
  settings: Config,
  userId: string,
  password: string,
  actor: Actor,
): Promise<void> {
  const user = await findUser(db, userId);
  const context = await createAuth(db, settings).$context;
  const hash = await context.password.hash(password);
  const credential = await db.account.findFirst({ where: { userId, providerId: "credential" } });
  if (credential) await context.internalAdapter.updatePassword(userId, hash);
  else
    await context.internalAdapter.linkAccount({
      userId,
      providerId: "credential",
      accountId: userId,
      password: hash,
    });
  await db.session.deleteMany({ where: { userId } });
  await logAdminAction(db, { actor, action: "user.password", target: userId, detail: { email: user.email } });
}
