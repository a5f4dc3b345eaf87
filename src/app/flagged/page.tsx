import { Suspense } from "react";
import { FlaggedSteps } from "@/features/flags/components/FlaggedSteps";

export default function FlaggedPage() {
  return (
    <>
      <h1>Flagged steps</h1>
      <p className="sub">
        Transitions researchers flagged as hallucinated, and how faithful each run's experience model was to
        the real environment.
      </p>
      <Suspense>
        <FlaggedSteps />
      </Suspense>
    </>
  );
}
