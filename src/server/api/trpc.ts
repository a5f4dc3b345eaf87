import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import { AnnotationError } from "../annotations/errors";
import { type Db, getDb } from "../db";

export interface Context {
  db: Db;
}

export async function createContext(): Promise<Context> {
  return { db: await getDb() };
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
export const publicProcedure = t.procedure;
export { TRPCError };
