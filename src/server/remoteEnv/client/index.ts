/**
 * Clients for real environments that run outside DreamGym (OpenEnv and AgentGym servers): a registered
 * `RemoteEnvSpec` as an `Environment`, a task's instruction, and a health check.
 */
export type { HealthReport } from "./health";
export { checkHealth } from "./health";
export { openEpisodes } from "./limiter";
export { closeIdleSessions } from "./pool";
export type { ProbedTask } from "./probe";
export { probeTask, splitOfNumber } from "./probe";
export type { RemoteEnvironmentOptions } from "./remoteEnvironment";
export { RemoteEnvironment } from "./remoteEnvironment";
