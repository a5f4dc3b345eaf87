import { Suspense } from "react";
import { ComparePage } from "@/features/runs/components/ComparePage";

export default function Page() {
  return (
    <>
      <h1>Compare runs</h1>
      <p className="sub">
        Several runs on shared charts, with the settings on which they differ beside them.
      </p>
      <Suspense>
        <ComparePage />
      </Suspense>
    </>
  );
}
