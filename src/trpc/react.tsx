"use client";

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, loggerLink, TRPCClientError } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { type ReactNode, useState } from "react";
import superjson from "superjson";
import type { AppRouter } from "@/server/api/root";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** Whether the server answered that what was asked for does not exist (a TRPCError NOT_FOUND). */
export function isNotFound(error: unknown): boolean {
  return (
    error instanceof TRPCClientError && (error.data as { code?: unknown } | undefined)?.code === "NOT_FOUND"
  );
}

/** Retries a failed query up to 3 times, except a refusal: asking again will not make it exist or allowed. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  const code =
    error instanceof TRPCClientError ? (error.data as { code?: unknown } | undefined)?.code : undefined;
  return !["NOT_FOUND", "UNAUTHORIZED", "FORBIDDEN"].includes(String(code)) && failureCount < 3;
}

/** Whether the server answered that nobody is signed in (the session expired or was revoked). */
export function isSignedOut(error: unknown): boolean {
  return (
    error instanceof TRPCClientError &&
    (error.data as { code?: unknown } | undefined)?.code === "UNAUTHORIZED"
  );
}

/** A session that ended while the page was open: back to sign-in, and then to this page. */
function toSignIn(error: unknown) {
  if (!isSignedOut(error) || window.location.pathname === "/sign-in") return;
  const next = window.location.pathname + window.location.search;
  window.location.assign(`/sign-in?next=${encodeURIComponent(next)}`);
}

function makeQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: toSignIn }),
    mutationCache: new MutationCache({ onError: toSignIn }),
    defaultOptions: { queries: { staleTime: 5_000, refetchOnWindowFocus: false, retry: shouldRetry } },
  });
}

export function TRPCReactProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        loggerLink({
          enabled: (op) =>
            op.direction === "down" && op.result instanceof Error && process.env.NODE_ENV === "development",
        }),
        httpBatchLink({ url: "/api/trpc", transformer: superjson }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
