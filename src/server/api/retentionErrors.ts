import { RetentionError } from "../retention/errors";
import { TRPCError } from "./trpc";

/** A refused deletion keeps its meaning over the wire: NOT_FOUND, or CONFLICT ("cancel it first"). */
export function retentionAsTrpc(error: unknown): never {
  if (error instanceof RetentionError)
    throw new TRPCError({ code: error.code, message: error.message, cause: error });
  throw error;
}
