"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useTRPC } from "@/trpc/react";
import { measuredAt, share } from "../format";
import { TrustFigures } from "./TrustFigures";
import { TrustVerdictNote } from "./TrustVerdictNote";

/**
 * Beside an imported-domain run's proxies: how far they can be trusted, from the held-out logs (core/trust). The
 * latest evaluation's figures, or the import's before the run has any; nothing for a run in a domain with a real
 * environment. Asked again while the run goes on (`live`).
 */
export function TrustPanel({ runId, live }: { runId: string; live: boolean }) {
  const trpc = useTRPC();
  const trust = useQuery({
    ...trpc.trust.run.queryOptions({ id: runId }),
    refetchInterval: live ? 3_000 : false,
  });
  const { refetch } = trust;
  const wasLive = useRef(live);
  // The run's final verdict is stored as it ends, after the last poll: asked once more when it stops.
  useEffect(() => {
    if (wasLive.current && !live) void refetch();
    wasLive.current = live;
  }, [live, refetch]);
  const view = trust.data;
  const shown = view?.latest ?? view?.atImport;
  if (!view || !shown) return null;
  return (
    <section className="panel" aria-label="Trust in the proxies" data-testid="trust-panel">
      <h2>Can the proxies be trusted? Held-out logs</h2>
      <TrustVerdictNote verdict={shown.report.verdict} where={measuredAt(shown.at)} />
      {view.untrainedSyntheticSuccess !== null ? (
        <p className="hint">
          The untrained policy&apos;s synthetic success was {share(view.untrainedSyntheticSuccess)}; the
          logged policies&apos; success rates are in the calibration table.
        </p>
      ) : null}
      {!view.latest ? (
        <p className="hint">Figures from the import; the run&apos;s own come with its first evaluation.</p>
      ) : null}
      <TrustFigures report={shown.report} />
    </section>
  );
}
