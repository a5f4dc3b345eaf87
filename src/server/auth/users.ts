import type { Config } from "@/env";
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
}

/** Why a change to the people was refused: the message says what and which field. */
export class UserRefused extends Error {
  constructor(
    message: string,
    readonly reason: "not-found" | "exists" | "last-admin",
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
}): UserRow {
  return { id: u.id, name: u.name, email: u.email, role: u.role ?? DEFAULT_ROLE, createdAt: u.createdAt };
}

export async function listUsers(db: Db): Promise<UserRow[]> {
  return (await db.user.findMany({ orderBy: { createdAt: "asc" } })).map(toRow);
}

export async function createUser(db: Db, settings: Config, user: NewUser): Promise<UserRow> {
  const email = user.email.toLowerCase();
  if (await db.user.findUnique({ where: { email } }))
    throw new UserRefused(`email: ${email} already has an account`, "exists");
  const { id } = await addUser(db, settings, { ...user, email });
  return toRow(await db.user.findUniqueOrThrow({ where: { id } }));
}

/** A new role takes effect on the person's next request: sessions read the role from the user row. */
export async function setRole(db: Db, userId: string, role: RoleName): Promise<UserRow> {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user) throw new UserRefused(`user ${userId} does not exist`, "not-found");
  if (user.role === "admin" && role !== "admin") {
    const admins = await db.user.count({ where: { role: "admin" } });
    if (admins <= 1)
      throw new UserRefused(
        `role: ${user.email} is the only admin; make someone else admin first`,
        "last-admin",
      );
  }
  return toRow(await db.user.update({ where: { id: userId }, data: { role } }));
}

/** Sets a person's password (hashed as at sign-in) and signs them out everywhere. */
export async function setPassword(db: Db, settings: Config, userId: string, password: string): Promise<void> {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user) throw new UserRefused(`user ${userId} does not exist`, "not-found");
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
}
