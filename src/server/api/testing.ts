import type { RoleName } from "../auth/access";
import type { Db } from "../db";
import type { Context } from "./trpc";

/**
 * A tRPC context as a signed-in person of `role` (tests call routers directly, with no session behind them);
 * `who` is their email, which is what reviews and flags record.
 */
export function signedIn(db: Db, role: RoleName = "admin", who = `${role}@test.local`): Context {
  return { db, user: { id: `user-${who}`, name: who, email: who, role } };
}
