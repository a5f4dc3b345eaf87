import { listDomains } from "../../domains/domains";
import { createTRPCRouter, publicProcedure } from "../trpc";

export const domainsRouter = createTRPCRouter({
  /** Built-in and imported domains, with what an imported one holds and whether it can be trained on. */
  list: publicProcedure.query(({ ctx }) => listDomains(ctx.db)),
});
