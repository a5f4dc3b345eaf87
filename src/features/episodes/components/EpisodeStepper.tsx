"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { useKeyboardShortcuts } from "@/features/shared/useKeyboardShortcuts";
import { useTRPC } from "@/trpc/react";
import { OutcomeBadge, RewardBadge, SourceBadge } from "./Badges";

function asActions(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/**
 * One step at a time: the state and action it came from, the reasoning trace, and the next state with its reward,
 * side by side. All model text is rendered as text (React escapes it), never as HTML.
 */
export function EpisodeStepper({ id }: { id: string }) {
  const trpc = useTRPC();
  const params = useSearchParams();
  const query = useQuery(trpc.trajectories.get.queryOptions({ id }));
  const steps = query.data?.steps ?? [];
  const last = Math.max(0, steps.length - 1);
  // The step lives in component state so that fast key presses each build on the previous one; the URL follows
  // (shallowly) so that a step can be linked to.
  const [requested, setRequested] = useState(() => Math.max(0, Number(params.get("step") ?? 0) || 0));
  const current = Math.min(requested, last);

  useEffect(() => {
    if (steps.length === 0) return;
    const url = new URL(window.location.href);
    url.searchParams.set("step", String(current));
    window.history.replaceState(window.history.state, "", url);
  }, [current, steps.length]);

  const move = (to: (index: number) => number) =>
    setRequested((index) => Math.min(Math.max(0, to(Math.min(index, last))), last));

  useKeyboardShortcuts([
    { keys: ["ArrowRight", "j", "l"], description: "next step", run: () => move((i) => i + 1) },
    { keys: ["ArrowLeft", "k", "h"], description: "previous step", run: () => move((i) => i - 1) },
    { keys: ["Home"], description: "first step", run: () => move(() => 0) },
    { keys: ["End"], description: "last step", run: () => move(() => last) },
  ]);

  if (query.error) return <div className="error">{query.error.message}</div>;
  if (!query.data) return <p className="hint">Loading episode…</p>;
  const t = query.data;
  const step = steps[current];

  return (
    <div>
      <p className="hint">
        <Link href="/trajectories">← Trajectories</Link>
      </p>
      <h1 data-testid="instruction">{t.task.instruction}</h1>
      <div className="row sub">
        <span>{t.domain}</span>
        <SourceBadge source={t.source} />
        <span className="mono">{t.policy}</span>
        <OutcomeBadge success={t.success} />
        <span>return {t.totalReward.toFixed(2)}</span>
        {t.runId ? (
          <span>
            run {t.runId.slice(0, 8)} · iteration {t.iteration}
          </span>
        ) : null}
      </div>

      <div className="row">
        <strong data-testid="step-position">
          Step {current + 1} of {steps.length}
        </strong>
        <span className="hint">
          <kbd>←</kbd>/<kbd>→</kbd> or <kbd>k</kbd>/<kbd>j</kbd> to move · <kbd>Home</kbd>/<kbd>End</kbd>
        </span>
      </div>
      <div className="dots" role="tablist" aria-label="Steps">
        {steps.map((s, i) => (
          <button
            type="button"
            role="tab"
            aria-selected={i === current}
            key={s.id}
            title={`Step ${i + 1}: ${s.action}`}
            className={[
              i === current ? "current" : "",
              s.reward > 0 ? "reward" : "",
              s.valid ? "" : "invalid",
            ].join(" ")}
            onClick={() => move(() => i)}
          >
            {i + 1}
          </button>
        ))}
      </div>

      {step ? (
        <div className="stepper">
          <section className="panel" aria-label="State">
            <h2>State</h2>
            <pre className="text" data-testid="state">
              {step.state}
            </pre>
            {asActions(step.stateActions).length > 0 ? (
              <>
                <div className="hint" style={{ marginTop: 10 }}>
                  admissible actions
                </div>
                <ul className="actions-list">
                  {asActions(step.stateActions).map((a) => (
                    <li key={a}>{a}</li>
                  ))}
                </ul>
              </>
            ) : null}
          </section>
          <section className="panel" aria-label="Action and reasoning">
            <h2>Action</h2>
            <pre className="text" data-testid="action">
              {step.action}
            </pre>
            <h2 style={{ marginTop: 14 }}>Reasoning trace</h2>
            <pre className="text" data-testid="reasoning">
              {step.reasoning ?? "(no reasoning recorded)"}
            </pre>
            {step.model ? (
              <p className="hint">
                {step.model}
                {step.latencyMs != null ? ` · ${Math.round(step.latencyMs)} ms` : ""}
              </p>
            ) : null}
          </section>
          <section className="panel" aria-label="Next state">
            <h2>
              Next state
              <span className="row" style={{ gap: 6 }}>
                <span data-testid="reward">
                  <RewardBadge reward={step.reward} />
                </span>
                {step.done ? <span className="badge">done</span> : null}
                {step.valid ? null : <span className="badge bad">invalid action</span>}
              </span>
            </h2>
            <pre className="text" data-testid="next-state">
              {step.nextState}
            </pre>
          </section>
        </div>
      ) : (
        <p className="hint">This trajectory has no steps.</p>
      )}
    </div>
  );
}
