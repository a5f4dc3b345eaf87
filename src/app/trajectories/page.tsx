import { Suspense } from "react";
import { TrajectoryList } from "@/features/episodes/components/TrajectoryList";

export default function TrajectoriesPage() {
  return (
    <>
      <h1>Trajectories</h1>
      <p className="sub">
        Offline logs, imports, and the synthetic and real rollouts of runs. Open one to step through it.
      </p>
      <Suspense>
        <TrajectoryList />
      </Suspense>
    </>
  );
}
