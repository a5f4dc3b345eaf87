import { Suspense } from "react";
import { RunsPage } from "@/features/runs/components/RunsPage";

export default function Page() {
  return (
    <>
      <h1>Runs</h1>
      <p className="sub">
        Training runs of DreamGym and its comparisons. The worker runs them one at a time; status and progress
        update live.
      </p>
      <Suspense>
        <RunsPage />
      </Suspense>
    </>
  );
}
