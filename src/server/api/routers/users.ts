import { z } from "zod";
import { config } from "@/env";
import { PersonName } from "@/shared/names";
import { RoleName } from "@/shared/roles";
import { listAdminActions } from "../../audit/adminLog";
import { can, statements } from "../../auth/access";
import { MIN_PASSWORD } from "../../auth/auth";
import {
  createUser,
  deactivateUser,
  listUsers,
  reactivateUser,
  setPassword,
  setRole,
  UserRefused,
} from "../../auth/users";
import { allowedTo, createTRPCRouter, publicProcedureWithUser, TRPCError } from "../trpc";

const Password = z.string().min(MIN_PASSWORD, `a password is at least ${MIN_PASSWORD} characters`).max(128);

function asTrpcError(error: unknown): never {
  if (error instanceof UserRefused)
    throw new TRPCError({
      code:
        error.reason === "not-found" ? "NOT_FOUND" : error.reason === "exists" ? "CONFLICT" : "BAD_REQUEST",
      message: error.message,
    });
  throw error;
}

/** Everything a role may do, as the UI needs it to show only what will be accepted (the server still checks). */
function permissionsOf(role: string): string[] {
  return Object.entries(statements).flatMap(([resource, actions]) =>
    actions.filter((a) => can(role, { [resource]: [a] })).map((a) => `${resource}:${a}`),
  );
}

/** Who is signed in, and the people an admin manages. */
export const usersRouter = createTRPCRouter({
  /** The signed-in person and what their role allows; null when nobody is signed in. */
  me: publicProcedureWithUser.query(({ ctx }) =>
    ctx.user ? { ...ctx.user, permissions: permissionsOf(ctx.user.role) } : null,
  ),

  list: allowedTo({ user: ["list"] }).query(({ ctx }) => listUsers(ctx.db)),

  create: allowedTo({ user: ["create"] })
    .input(
      z.object({
        email: z.string().trim().email("email: not an email address"),
        name: PersonName,
        password: Password,
        role: RoleName,
      }),
    )
    .mutation(({ ctx, input }) => createUser(ctx.db, config(), input, ctx.user.id).catch(asTrpcError)),

  setRole: allowedTo({ user: ["set-role"] })
    .input(z.object({ id: z.string().min(1), role: RoleName }))
    .mutation(({ ctx, input }) => setRole(ctx.db, input.id, input.role, ctx.user.id).catch(asTrpcError)),

  setPassword: allowedTo({ user: ["set-password"] })
    .input(z.object({ id: z.string().min(1), password: Password }))
    .mutation(async ({ ctx, input }) => {
      await setPassword(ctx.db, config(), input.id, input.password, ctx.user.id).catch(asTrpcError);
      return { ok: true };
    }),

  /** Ends the person's sessions and tokens now and refuses their sign-in until reactivated. */
  deactivate: allowedTo({ user: ["ban"] })
    .input(z.object({ id: z.string().min(1), reason: z.string().trim().max(200).optional() }))
    .mutation(({ ctx, input }) =>
      deactivateUser(ctx.db, input.id, ctx.user.id, input.reason).catch(asTrpcError),
    ),

  reactivate: allowedTo({ user: ["ban"] })
    .input(z.object({ id: z.string().min(1) }))
    .mutation(({ ctx, input }) => reactivateUser(ctx.db, input.id, ctx.user.id).catch(asTrpcError)),

  /** What admins changed, newest first (admins only: it names people and what was done to them). */
  auditLog: allowedTo({ user: ["ban"] })
    .input(z.object({ limit: z.number().int().min(1).max(1000).default(200) }).optional())
    .query(({ ctx, input }) => listAdminActions(ctx.db, input?.limit ?? 200)),
});
