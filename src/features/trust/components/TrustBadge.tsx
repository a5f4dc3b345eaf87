import { readTrustSummary } from "@/core/trust/summary";

/**
 * A run's proxies' verdict in a list: "untrustworthy" with its reasons on hover, "proxies checked" when the
 * held-out logs found nothing wrong; nothing for a run without one (a real environment scores it).
 */
export function TrustBadge({ trust }: { trust: unknown }) {
  const summary = readTrustSummary(trust);
  if (!summary) return null;
  if (summary.trustworthy)
    return (
      <span
        className="badge good"
        data-testid="trust-badge"
        title="The experience model passed every check against the held-out logs that it could be given"
      >
        proxies checked
      </span>
    );
  return (
    <span className="badge bad" data-testid="trust-badge" title={summary.reasons.join("\n")}>
      untrustworthy
    </span>
  );
}
