"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { ShortcutCheatsheet } from "@/features/shared/components/ShortcutCheatsheet";
import { useKeyboardShortcuts } from "@/features/shared/useKeyboardShortcuts";
import { realAnswerOf, verdictOf } from "@/shared/realAnswer";
import { episodeHref, filterQuery, readExplorerParams } from "../lib/explorerParams";
import { STEPPER_CHEATSHEET } from "../lib/stepperShortcuts";
import { useEpisode } from "../lib/useEpisode";
import { useStepCursor } from "../lib/useStepCursor";
import { useStepFlag } from "../lib/useStepFlag";
import { EpisodeMeta } from "./EpisodeMeta";
import { EpisodeNav } from "./EpisodeNav";
import { StepBar } from "./StepBar";
import { StepDots } from "./StepDots";
import { StepLegend } from "./StepLegend";
import { StepView } from "./StepView";

/**
 * The step view. The whole episode is loaded once and stepped through on the client, so moving between steps
 * never waits on the server; the neighbouring episodes of the filtered list are prefetched for the same reason.
 */
export function EpisodeStepper({ id }: { id: string }) {
  const router = useRouter();
  const params = useSearchParams();
  const carried = filterQuery(params);
  const filter = useMemo(() => readExplorerParams(new URLSearchParams(carried)), [carried]);
  const { episode, demonstrations, adjacent, previousId, nextId } = useEpisode(id, filter);

  const steps = episode.data?.steps ?? [];
  const { current, last, move } = useStepCursor(params.get("step"), steps.length);
  const flag = useStepFlag(current, episode.data?.source, steps.length > 0);
  const [cheatsheet, setCheatsheet] = useState(false);

  const verdicts = useMemo(() => steps.map((s) => verdictOf(s)), [steps]);
  const differs = useMemo(() => verdicts.map((v) => v?.any === true), [verdicts]);
  // Where the synthetic episode first left the real one: the transition most worth a look.
  const firstStateDivergence = verdicts.findIndex((v) => v?.state === true);

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
    { keys: ["f"], description: "flag", run: flag.open },
    { keys: ["?"], description: "cheatsheet", run: () => setCheatsheet((open) => !open) },
    {
      keys: ["Escape"],
      description: "close",
      run: () => {
        setCheatsheet(false);
        flag.close();
      },
    },
  ]);

  if (episode.error) return <div className="error">{episode.error.message}</div>;
  if (!episode.data) return <p className="hint">Loading episode…</p>;
  const t = episode.data;
  const step = steps[current];

  return (
    <div>
      <EpisodeNav carried={carried} adjacent={adjacent.data} />
      <EpisodeMeta episode={t} />
      <StepBar
        current={current}
        total={steps.length}
        step={step}
        flagUnavailable={flag.unavailable}
        onFlag={flag.open}
        onCheatsheet={() => setCheatsheet(true)}
      />
      <StepDots steps={steps} differs={differs} current={current} onSelect={(i) => move(() => i)} />
      {differs.some(Boolean) || steps.some((s) => s.flagged) ? <StepLegend /> : null}

      {step ? (
        <StepView
          episode={t}
          step={step}
          flag={flag}
          real={realAnswerOf(step)}
          verdict={verdicts[current] ?? null}
          divergedAt={
            firstStateDivergence >= 0 && firstStateDivergence < current ? firstStateDivergence : null
          }
          onJump={(i) => move(() => i)}
          demonstrations={demonstrations.data?.[step.id]}
          demonstrationsLoading={demonstrations.isPending}
        />
      ) : (
        <p className="hint">This trajectory has no steps.</p>
      )}
      {cheatsheet ? (
        <ShortcutCheatsheet entries={STEPPER_CHEATSHEET} onClose={() => setCheatsheet(false)} />
      ) : null}
    </div>
  );
}
