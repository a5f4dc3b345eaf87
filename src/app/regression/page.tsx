import { Suspense } from "react";
import { RegressionSuite } from "@/features/regression/components/RegressionSuite";

export default function RegressionPage() {
  return (
    <>
      <h1>Regression suite</h1>
      <p className="sub">
        Versions of the experience model run against the flagged steps and held-out transitions of a domain:
        which cases each version gets right, and which a newer version fixed or broke.
      </p>
      <Suspense>
        <RegressionSuite />
      </Suspense>
    </>
  );
}
