import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

type Outputs = inferRouterOutputs<AppRouter>;
export type Episode = Outputs["trajectories"]["get"];
export type EpisodeStep = Episode["steps"][number];
export type DemonstrationsByStep = Outputs["steps"]["demonstrations"];
export type Demonstration = DemonstrationsByStep[string][number];
