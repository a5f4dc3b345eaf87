import { listDomains } from "../../domains/domains";
import { createTRPCRouter, readProcedure } from "../trpc";

export const domainsRouter = createTRPCRouter({
  /** Built-in and imported domains, with what an imported one holds and whether it can be trained on. */
  list: readProcedure.query(({ ctx }) => listDomains(ctx.db)),
});
