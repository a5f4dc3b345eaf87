import { bufferRouter } from "./routers/buffer";
import { jobsRouter } from "./routers/jobs";
import { runsRouter } from "./routers/runs";
import { trajectoriesRouter } from "./routers/trajectories";
import { createCallerFactory, createTRPCRouter } from "./trpc";

/** The one router registry: every feature's router is mounted here. */
export const appRouter = createTRPCRouter({
  trajectories: trajectoriesRouter,
  jobs: jobsRouter,
  buffer: bufferRouter,
  runs: runsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
