"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";
import type { DomainKind } from "../types";
import { domainKindOf } from "./domainKind";

/** Each domain's kind from the domains list, for the views whose figures depend on it; `loading` until it came. */
export function useDomainKind(): { kindOf: (name: string) => DomainKind | null; loading: boolean } {
  const trpc = useTRPC();
  const domains = useQuery(trpc.domains.list.queryOptions());
  return { kindOf: (name) => domainKindOf(name, domains.data), loading: domains.isPending };
}
