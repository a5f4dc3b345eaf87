import { z } from "zod";
import type { RemoteEnvSpecInput } from "@/core/envs/remote/spec";
import { listDomains } from "../../domains/domains";
import {
  checkRemoteDomain,
  listRemoteDomains,
  RegistrationError,
  registerRemoteDomain,
  removeRemoteDomain,
} from "../../remoteEnv/registry";
import { allowedTo, createTRPCRouter, readProcedure, TRPCError } from "../trpc";

/**
 * The registration as the form sends it. Only its shape is checked here: registerRemoteDomain validates the fields
 * and names each problem in a sentence, which a tRPC input schema would answer with zod's issues instead.
 */
const Registration = z.custom<RemoteEnvSpecInput>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value),
  "a registration is an object of its fields",
);

const Name = z.object({ name: z.string().min(1).max(100) });

/** A registration the registry refuses keeps its sentence over the wire, as a bad request. */
function registrationAsTrpc(error: unknown): never {
  if (error instanceof RegistrationError)
    throw new TRPCError({ code: "BAD_REQUEST", message: error.message, cause: error });
  throw error;
}

/**
 * Registering, checking and removing remote environments is the researchers' (and admins') work, as bringing data
 * in is: access.ts has no statement of its own for domains, so those of data stand for it.
 */
export const domainsRouter = createTRPCRouter({
  /** Built-in, remote and imported domains, with what an imported one holds and whether it can be trained on. */
  list: readProcedure.query(({ ctx }) => listDomains(ctx.db)),

  /** The remote environments' registrations with their last health check; a token is said to exist, never shown. */
  remote: readProcedure.query(({ ctx }) => listRemoteDomains(ctx.db)),

  /** Checks the environment (health, then a reset of train task 0) and keeps it only when it answers. */
  register: allowedTo({ data: ["import"] })
    .input(Registration)
    .mutation(({ ctx, input }) =>
      registerRemoteDomain(ctx.db, input, { createdBy: ctx.user.email }).catch(registrationAsTrpc),
    ),

  /** Asks the environment again; a registered domain keeps the answer as its last health. */
  check: allowedTo({ data: ["import"] })
    .input(Name)
    .mutation(({ ctx, input }) => checkRemoteDomain(ctx.db, input.name).catch(registrationAsTrpc)),

  /** Removes a registration (its runs and trajectories stay); refused while a queued or running run uses it. */
  remove: allowedTo({ data: ["delete"] })
    .input(Name)
    .mutation(async ({ ctx, input }) => {
      await removeRemoteDomain(ctx.db, input.name).catch(registrationAsTrpc);
      return { removed: input.name };
    }),
});
