import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

type Outputs = inferRouterOutputs<AppRouter>["gamed"];
export type GamedPage = Outputs["episodes"];
export type GamedEpisode = GamedPage["items"][number];
export type GamedSummary = Outputs["summary"];
export type PartingBreakdown = GamedSummary["parting"]["all"];
