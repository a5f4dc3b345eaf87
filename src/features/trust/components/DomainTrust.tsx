"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";
import { TrustFigures } from "./TrustFigures";
import { TrustVerdictNote } from "./TrustVerdictNote";

/** An imported domain's trust figures measured at its last import, folded away under their verdict. */
export function DomainTrust({ domain }: { domain: string }) {
  const trpc = useTRPC();
  const trust = useQuery(trpc.trust.domain.queryOptions({ domain }));
  if (!trust.data) return null;
  const { report, measuredAt } = trust.data;
  return (
    <details data-testid="domain-trust">
      <summary>
        Held-out fidelity and calibration at import{" "}
        <span className={`badge ${report.verdict.trustworthy ? "good" : "bad"}`}>
          {report.verdict.trustworthy ? "proxies checked" : "untrustworthy"}
        </span>
      </summary>
      <TrustVerdictNote
        verdict={report.verdict}
        where={`the import of ${new Date(measuredAt).toLocaleString("en-US")}`}
      />
      <TrustFigures report={report} />
    </details>
  );
}
