import type { Policy, Task } from "../../types";
import { playEpisode as play } from "../playEpisode";
import { HouseholdEnvironment } from "./env";

/** Plays one episode of a policy in a fresh household environment, for tests and benchmarks. */
export const playEpisode = (policy: Policy, task: Task) => play(new HouseholdEnvironment(), policy, task);
