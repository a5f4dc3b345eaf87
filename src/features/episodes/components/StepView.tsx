import { FlagPanel } from "@/features/flags/components/FlagPanel";
import { FlagUnavailable } from "@/features/flags/components/FlagUnavailable";
import type { realAnswerOf, verdictOf } from "@/shared/realAnswer";
import type { useStepFlag } from "../lib/useStepFlag";
import type { Demonstration, Episode, EpisodeStep } from "../types";
import { Demonstrations } from "./Demonstrations";
import { RealAnswerComparison } from "./RealAnswerComparison";
import { StepPanels } from "./StepPanels";

interface Props {
  episode: Episode;
  step: EpisodeStep;
  flag: ReturnType<typeof useStepFlag>;
  real: ReturnType<typeof realAnswerOf>;
  verdict: ReturnType<typeof verdictOf>;
  /** The earlier step where the episode first left the real one, to jump back to; null when none. */
  divergedAt: number | null;
  onJump: (index: number) => void;
  demonstrations: Demonstration[] | undefined;
  demonstrationsLoading: boolean;
}

/**
 * One step: its flag, what the policy saw, did and was told, the real environment's answer beside the
 * prediction, and the demonstrations the experience model retrieved for it.
 */
export function StepView(props: Props) {
  const { episode, step, flag, real, verdict, divergedAt, onJump, demonstrations = [] } = props;
  return (
    <>
      {flag.refused && flag.unavailable ? (
        <FlagUnavailable reason={flag.unavailable} onClose={() => flag.setRefused(false)} />
      ) : null}
      <FlagPanel
        key={step.id}
        trajectoryId={episode.id}
        step={step}
        editing={flag.editing}
        onEditingChange={flag.setEditing}
      />
      <StepPanels step={step} synthetic={episode.source === "synthetic"} />
      {real && verdict ? (
        <RealAnswerComparison
          step={step}
          real={real}
          verdict={verdict}
          divergedAt={divergedAt}
          onJump={onJump}
        />
      ) : null}
      {episode.source === "synthetic" || demonstrations.length > 0 ? (
        <Demonstrations demonstrations={demonstrations} loading={props.demonstrationsLoading} />
      ) : null}
    </>
  );
}
