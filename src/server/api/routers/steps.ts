import { createTRPCRouter } from "../trpc";

export const stepsRouter = createTRPCRouter({});
