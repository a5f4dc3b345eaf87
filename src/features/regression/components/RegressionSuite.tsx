"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { Allowed } from "@/features/auth/components/Allowed";
import { CASE_SOURCES, readRegressionParams, SOURCE_LABELS } from "../lib/regressionParams";
import { useRegression } from "../lib/useRegression";
import styles from "../regression.module.css";
import { CaseMatrix } from "./CaseMatrix";
import { CheckList } from "./CheckList";
import { VersionForm } from "./VersionForm";

/**
 * The experience model's regression suite: a domain's flagged steps and held-out transitions, the versions run
 * against them, and the cases side by side (domain and cases in the URL).
 */
export function RegressionSuite() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const { domain, source } = readRegressionParams(params);
  const suite = useRegression(domain, source);
  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(params.toString());
    next.set(key, value);
    router.replace(`${pathname}?${next.toString()}`);
  };
  const domains = suite.options.data?.domains ?? [];
  if (suite.options.data && !suite.domain)
    return (
      <p className="hint" data-testid="regression-empty">
        No flagged step has the real environment's answer yet. Flag steps of a run's synthetic episodes (with{" "}
        <kbd>f</kbd> in the step view): they become this suite's cases.
      </p>
    );
  return (
    <div>
      <div className="filters">
        <label className="field">
          Domain
          <select
            aria-label="Domain"
            value={suite.domain ?? ""}
            onChange={(e) => setParam("domain", e.target.value)}
          >
            {domains.map((d) => (
              <option key={d.domain} value={d.domain}>
                {d.domain} ({d.cases} flagged)
              </option>
            ))}
          </select>
        </label>
        <div className={styles.tabs} role="tablist" aria-label="Cases">
          {CASE_SOURCES.map((s) => (
            <button
              key={s}
              type="button"
              role="tab"
              aria-selected={s === source}
              className={s === source ? styles.tabOn : undefined}
              onClick={() => setParam("cases", s)}
            >
              {SOURCE_LABELS[s]}
            </button>
          ))}
        </div>
      </div>
      {suite.domain ? (
        <Allowed permission="run:launch">
          <VersionForm
            domain={suite.domain}
            endpoint={suite.options.data?.endpoint}
            promptVersion={suite.options.data?.promptVersion}
          />
        </Allowed>
      ) : null}
      <CheckList checks={suite.checks.data} />
      <h2>Cases</h2>
      {suite.matrix.error ? <div className="error">{suite.matrix.error.message}</div> : null}
      {suite.matrix.data ? (
        <CaseMatrix matrix={suite.matrix.data} />
      ) : (
        <p className="hint">Loading the cases…</p>
      )}
    </div>
  );
}
