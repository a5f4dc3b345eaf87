"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { useMe } from "@/features/auth/lib/useMe";
import { FlagButton } from "@/features/flags/components/FlagButton";
import { FlagPanel } from "@/features/flags/components/FlagPanel";
import { FlagUnavailable } from "@/features/flags/components/FlagUnavailable";
import { flagUnavailableReason } from "@/features/flags/lib/flaggable";
import { OutcomeBadge, SourceBadge } from "@/features/shared/components/Badges";
import { type CheatsheetEntry, ShortcutCheatsheet } from "@/features/shared/components/ShortcutCheatsheet";
import { formatReward } from "@/features/shared/lib/formatReward";
import { useKeyboardShortcuts } from "@/features/shared/useKeyboardShortcuts";
import { realAnswerOf, verdictOf } from "@/shared/realAnswer";
import { useTRPC } from "@/trpc/react";
import styles from "../episodes.module.css";
import { episodeHref, filterQuery, readExplorerParams } from "../lib/explorerParams";
import { Demonstrations } from "./Demonstrations";
import { EpisodeNav } from "./EpisodeNav";
import { RealAnswerComparison } from "./RealAnswerComparison";
import { StepDots } from "./StepDots";
import { StepPanels } from "./StepPanels";

const CHEATSHEET: CheatsheetEntry[] = [
  { keys: ["→", "j", "l"], description: "next step" },
  { keys: ["←", "k", "h"], description: "previous step" },
  { keys: ["Home", "End"], description: "first / last step" },
  { keys: ["n", "Shift+→"], description: "next episode in the list" },
  { keys: ["p", "Shift+←"], description: "previous episode in the list" },
  { keys: ["f"], description: "flag the step as hallucinated (or edit its note); synthetic steps only" },
  { keys: ["?"], description: "show or hide this cheatsheet" },
  { keys: ["Esc"], description: "close" },
];

/**
 * The step view. The whole episode is loaded once and stepped through on the client, so moving between steps
 * never waits on the server; the neighbouring episodes of the filtered list are prefetched for the same reason.
 */
export function EpisodeStepper({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const params = useSearchParams();
  const carried = filterQuery(params);
  const filter = useMemo(() => readExplorerParams(new URLSearchParams(carried)), [carried]);

  const query = useQuery(trpc.trajectories.get.queryOptions({ id }));
  // Requests are batched: asking for the rest only once the episode is here keeps its first step from waiting on
  // the slower demonstration and list queries.
  const loaded = query.data !== undefined;
  const demonstrations = useQuery(
    trpc.steps.demonstrations.queryOptions({ trajectoryId: id }, { enabled: loaded }),
  );
  const adjacent = useQuery(trpc.trajectories.adjacent.queryOptions({ id, filter }, { enabled: loaded }));

  const steps = query.data?.steps ?? [];
  const last = Math.max(0, steps.length - 1);
  // The step lives in component state so that fast key presses each build on the previous one; the URL follows
  // (shallowly) so that a step can be linked to.
  const [requested, setRequested] = useState(() => Math.max(0, Number(params.get("step") ?? 0) || 0));
  const current = Math.min(requested, last);
  const [flagEditing, setFlagEditing] = useState(false);
  // Shown after "f" (or the button) on a step that holds no prediction: the key is never silently ignored.
  const [flagRefused, setFlagRefused] = useState(false);
  const [cheatsheet, setCheatsheet] = useState(false);

  const verdicts = useMemo(() => steps.map((s) => verdictOf(s)), [steps]);
  const differs = useMemo(() => verdicts.map((v) => v?.any === true), [verdicts]);
  // Where the synthetic episode first left the real one: the transition most worth a look.
  const firstStateDivergence = verdicts.findIndex((v) => v?.state === true);

  useEffect(() => {
    if (steps.length === 0) return;
    const url = new URL(window.location.href);
    url.searchParams.set("step", String(current));
    window.history.replaceState(window.history.state, "", url);
  }, [current, steps.length]);

  // A half-written note belongs to the step it was started on.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on every step change
  useEffect(() => {
    setFlagEditing(false);
    setFlagRefused(false);
  }, [current]);

  const previousId = adjacent.data?.previousId ?? null;
  const nextId = adjacent.data?.nextId ?? null;
  useEffect(() => {
    for (const other of [previousId, nextId]) {
      if (other) void queryClient.prefetchQuery(trpc.trajectories.get.queryOptions({ id: other }));
    }
  }, [previousId, nextId, queryClient, trpc]);

  const move = (to: (index: number) => number) =>
    setRequested((index) => Math.min(Math.max(0, to(Math.min(index, last))), last));
  const me = useMe();
  const flagUnavailable = !query.data
    ? null
    : me && !me.permissions.includes("step:flag")
      ? `Your role (${me.role}) may not flag steps; researchers flag hallucinated transitions.`
      : flagUnavailableReason(query.data.source);
  const openFlag = () => {
    if (steps.length === 0) return;
    if (flagUnavailable) setFlagRefused(true);
    else setFlagEditing(true);
  };
  const openEpisode = (other: string | null) => {
    if (other) router.push(episodeHref(other, carried));
  };

  useKeyboardShortcuts([
    {
      keys: ["ArrowRight", "j", "l"],
      description: "next step",
      run: (e) => (e.shiftKey && e.key === "ArrowRight" ? openEpisode(nextId) : move((i) => i + 1)),
    },
    {
      keys: ["ArrowLeft", "k", "h"],
      description: "previous step",
      run: (e) => (e.shiftKey && e.key === "ArrowLeft" ? openEpisode(previousId) : move((i) => i - 1)),
    },
    { keys: ["Home"], description: "first step", run: () => move(() => 0) },
    { keys: ["End"], description: "last step", run: () => move(() => last) },
    { keys: ["n"], description: "next episode", run: () => openEpisode(nextId) },
    { keys: ["p"], description: "previous episode", run: () => openEpisode(previousId) },
    { keys: ["f"], description: "flag", run: openFlag },
    { keys: ["?"], description: "cheatsheet", run: () => setCheatsheet((open) => !open) },
    {
      keys: ["Escape"],
      description: "close",
      run: () => {
        setCheatsheet(false);
        setFlagEditing(false);
        setFlagRefused(false);
      },
    },
  ]);

  if (query.error) return <div className="error">{query.error.message}</div>;
  if (!query.data) return <p className="hint">Loading episode…</p>;
  const t = query.data;
  const step = steps[current];
  const real = step ? realAnswerOf(step) : null;
  const verdict = verdicts[current] ?? null;

  return (
    <div>
      <EpisodeNav carried={carried} adjacent={adjacent.data} />
      <h1 data-testid="instruction">{t.task.instruction}</h1>
      <div className={styles.meta}>
        <span>{t.domain}</span>
        <SourceBadge source={t.source} />
        {t.policy ? <span className="mono">{t.policy}</span> : null}
        <OutcomeBadge success={t.success} />
        <span data-testid="return" data-value={t.totalReward}>
          return {formatReward(t.totalReward)}
        </span>
        {t.run ? (
          <span>
            run <Link href={`/trajectories?run=${encodeURIComponent(t.run.id)}`}>{t.run.name}</Link> ·
            iteration {t.iteration}
            {t.group !== null ? ` · rollout ${t.group + 1}` : ""}
          </span>
        ) : null}
        <Link
          className="mono"
          href={`/trajectories?task=${encodeURIComponent(t.task.id)}`}
          title="All episodes of this task"
        >
          {t.task.id}
        </Link>
      </div>

      <div className={styles.stepbar}>
        <div className={styles.stepbarLeft}>
          <strong data-testid="step-position">
            Step {current + 1} of {steps.length}
          </strong>
          <span className="hint">
            <kbd>←</kbd>/<kbd>→</kbd> or <kbd>k</kbd>/<kbd>j</kbd> to move · <kbd>n</kbd>/<kbd>p</kbd>{" "}
            episodes ·{" "}
            <button
              type="button"
              className="hint"
              style={{ padding: "0 6px" }}
              onClick={() => setCheatsheet(true)}
            >
              <kbd>?</kbd> shortcuts
            </button>
          </span>
        </div>
        {step ? <FlagButton flagged={step.flagged} unavailable={flagUnavailable} onOpen={openFlag} /> : null}
      </div>
      <StepDots steps={steps} differs={differs} current={current} onSelect={(i) => move(() => i)} />
      {differs.some(Boolean) || steps.some((s) => s.flagged) ? (
        <div className={styles.legend}>
          <span>
            <i className={styles.legendDiffers} />
            prediction differs from the real answer
          </span>
          <span>
            <i className={styles.legendFlagged} />
            flagged
          </span>
          <span>
            <i className={styles.legendReward} />
            reward
          </span>
        </div>
      ) : null}

      {step ? (
        <>
          {flagRefused && flagUnavailable ? (
            <FlagUnavailable reason={flagUnavailable} onClose={() => setFlagRefused(false)} />
          ) : null}
          <FlagPanel
            key={step.id}
            trajectoryId={t.id}
            step={step}
            editing={flagEditing}
            onEditingChange={setFlagEditing}
          />
          <StepPanels step={step} synthetic={t.source === "synthetic"} />
          {real && verdict ? (
            <RealAnswerComparison
              step={step}
              real={real}
              verdict={verdict}
              divergedAt={
                firstStateDivergence >= 0 && firstStateDivergence < current ? firstStateDivergence : null
              }
              onJump={(i) => move(() => i)}
            />
          ) : null}
          {t.source === "synthetic" || (demonstrations.data?.[step.id]?.length ?? 0) > 0 ? (
            <Demonstrations
              demonstrations={demonstrations.data?.[step.id] ?? []}
              loading={demonstrations.isPending}
            />
          ) : null}
        </>
      ) : (
        <p className="hint">This trajectory has no steps.</p>
      )}
      {cheatsheet ? <ShortcutCheatsheet entries={CHEATSHEET} onClose={() => setCheatsheet(false)} /> : null}
    </div>
  );
}
