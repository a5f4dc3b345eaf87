import type { Policy, Task } from "../../types";
import { playEpisode as play } from "../playEpisode";
import { OfficeEnvironment } from "./env";

/** Plays one episode of a policy in a fresh office environment, for tests and benchmarks. */
export const playEpisode = (policy: Policy, task: Task) => play(new OfficeEnvironment(), policy, task);
