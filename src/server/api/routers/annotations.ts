import { createTRPCRouter } from "../trpc";

export const annotationsRouter = createTRPCRouter({});
