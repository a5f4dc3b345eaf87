import { jobsRouter } from "./routers/jobs";
import { trajectoriesRouter } from "./routers/trajectories";
import { createCallerFactory, createTRPCRouter } from "./trpc";

/** The one router registry: every feature's router is mounted here. */
export const appRouter = createTRPCRouter({
  trajectories: trajectoriesRouter,
  jobs: jobsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
