import { config } from "@/env";
import type { Db } from "../db";
import type { RoleName } from "./access";
import { authFor } from "./auth";
import { addUser } from "./bootstrap";

const PASSWORD = "test-password-1";

/**
 * Request headers of a real signed-in session: a user of `role` is added and signs in with their password through
 * Better Auth, and the session token goes in `Authorization: Bearer` (what a trainer or script sends).
 */
export async function sessionHeaders(db: Db, role: RoleName, email = `${role}@test.local`): Promise<Headers> {
  if (!(await db.user.findUnique({ where: { email } })))
    await addUser(db, config(), { email, name: email, password: PASSWORD, role });
  const { token } = await authFor(db).api.signInEmail({ body: { email, password: PASSWORD } });
  return new Headers({ authorization: `Bearer ${token}` });
}
