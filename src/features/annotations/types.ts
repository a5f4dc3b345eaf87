import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

type Outputs = inferRouterOutputs<AppRouter>["annotations"];
export type QueueItem = Outputs["list"]["items"][number];
export type AnnotationDetail = Outputs["get"];
export type AnnotationEventRow = AnnotationDetail["events"][number];
export type QueueCounts = Outputs["counts"];
