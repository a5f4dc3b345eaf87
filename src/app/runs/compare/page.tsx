import { Suspense } from "react";
import { ComparePage } from "@/features/runs/components/ComparePage";

export default function Page() {
  return (
    <>
      <h1>Compare runs</h1>
      <p className="sub">Success per iteration of several runs on one chart.</p>
      <Suspense>
        <ComparePage />
      </Suspense>
    </>
  );
}
