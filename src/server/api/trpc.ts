import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import { AnnotationError } from "../annotations/errors";
import { can, describePermission, type Permission } from "../auth/access";
import { type SignedInUser, signedInUser } from "../auth/session";
import { type Db, getDb } from "../db";

export interface Context {
  db: Db;
  /** The signed-in person making the request; null when nobody is signed in. */
  user: SignedInUser | null;
}

export async function createContext({ req }: { req: Request }): Promise<Context> {
  return { db: await getDb(), user: await signedInUser(req.headers) };
}

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const zod = error.cause instanceof ZodError ? error.cause.issues : null;
    const lock = error.cause instanceof AnnotationError ? error.cause.lock : undefined;
    return {
      ...shape,
      data: {
        ...shape.data,
        // Field-level problems, so a form can say what is wrong and where.
        issues: zod?.map((i) => ({ path: i.path.map(String).join("."), message: i.message })) ?? null,
        // Who holds a trace that was refused for its lock, so the browser can say it in local time.
        lock: lock ? { holder: lock.holder, until: lock.until.toISOString() } : null,
      },
    };
  },
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;
export { TRPCError };

/** Answers whoever asks, signed in or not: only "who am I" is public. */
export const publicProcedureWithUser = t.procedure;

/** Reads: anyone signed in, whatever their role. */
export const readProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to use DreamGym" });
  return next({ ctx: { ...ctx, user: ctx.user } });
});

/** Changes: a signed-in person whose role allows `permission` (src/server/auth/access.ts). */
export const allowedTo = (permission: Permission) =>
  readProcedure.use(({ ctx, next }) => {
    if (!can(ctx.user.role, permission))
      throw new TRPCError({
        code: "FORBIDDEN",
        message: `Your role (${ctx.user.role}) may not ${describePermission(permission)}`,
      });
    return next({ ctx });
  });
