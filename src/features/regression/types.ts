import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

type Outputs = inferRouterOutputs<AppRouter>["regression"];
/** A regression check (one version of the experience model run against the suite), with its job's progress. */
export type RegressionCheck = Outputs["checks"][number];
export type RegressionMatrix = Outputs["matrix"];
export type MatrixRow = RegressionMatrix["rows"][number];
export type MatrixCell = NonNullable<MatrixRow["cells"][number]>;
export type VersionTally = RegressionMatrix["tallies"][number];
