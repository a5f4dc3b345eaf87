import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

type Outputs = inferRouterOutputs<AppRouter>["steps"];
/** A flagged step as the flagged list shows it, with its episode and the real environment's answer. */
export type FlaggedStep = Outputs["flagged"]["items"][number];
