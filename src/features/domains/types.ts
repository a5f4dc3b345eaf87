import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

type Outputs = inferRouterOutputs<AppRouter>["domains"];
/** A domain as the list gives it: built in, remote or imported, with its tasks. */
export type Domain = Outputs["list"][number];
export type DomainKind = Domain["kind"];
/** A remote environment's registration as shown back: its token only said to exist. */
export type RemoteDomain = Outputs["remote"][number];
export type Health = NonNullable<RemoteDomain["health"]>;
/** What registering answers: the registration and its first health check. */
export type Registered = Outputs["register"];
