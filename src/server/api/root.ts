import { annotationsRouter } from "./routers/annotations";
import { bufferRouter } from "./routers/buffer";
import { curriculumRouter } from "./routers/curriculum";
import { domainsRouter } from "./routers/domains";
import { gamedRouter } from "./routers/gamed";
import { jobsRouter } from "./routers/jobs";
import { regressionRouter } from "./routers/regression";
import { runsRouter } from "./routers/runs";
import { stepsRouter } from "./routers/steps";
import { trajectoriesRouter } from "./routers/trajectories";
import { trustRouter } from "./routers/trust";
import { usersRouter } from "./routers/users";
import { createCallerFactory, createTRPCRouter } from "./trpc";

/** The one router registry: every feature's router is mounted here. */
export const appRouter = createTRPCRouter({
  trajectories: trajectoriesRouter,
  jobs: jobsRouter,
  buffer: bufferRouter,
  runs: runsRouter,
  steps: stepsRouter,
  annotations: annotationsRouter,
  curriculum: curriculumRouter,
  gamed: gamedRouter,
  domains: domainsRouter,
  users: usersRouter,
  regression: regressionRouter,
  trust: trustRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
