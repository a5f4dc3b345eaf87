import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

type Outputs = inferRouterOutputs<AppRouter>["runs"];
/** One run as its page shows it: the row with its metrics, config, proxies and result. */
export type RunData = Outputs["get"];
/** A run as the runs list shows it. */
export type RunListItem = Outputs["list"][number];
/** A run as a comparison shows it: figures, config and per-iteration metrics. */
export type ComparedRunData = Outputs["compare"][number];
