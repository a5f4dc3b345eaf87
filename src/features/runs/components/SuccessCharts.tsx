import type { RunView } from "../runView";
import { CurveChart } from "./CurveChart";

/**
 * A run in a real environment: success in the real (and synthetic) environment per iteration, ending with the
 * final evaluation, and the sim-to-real gap when the run measured it.
 */
export function SuccessCharts({
  view,
  heldOut,
  xMax,
}: {
  view: RunView;
  heldOut: string;
  xMax: number | null;
}) {
  const { external, measuresGap, finalAt } = view;
  return (
    <>
      <CurveChart
        title="Success rate"
        subtitle={
          external
            ? "the trainer's episodes per policy version"
            : `rollouts · ${heldOut} tasks in the real and the synthetic env`
        }
        testId="success-chart"
        data={view.successRows}
        xMax={xMax}
        percent
        reference={view.reference}
        series={[
          { key: "syntheticSuccess", label: "synthetic rollouts", color: "#7a5af8", dash: "5 4" },
          ...(measuresGap
            ? [
                {
                  key: "simSuccess",
                  label: "test tasks, synthetic env",
                  color: "#c11574",
                  dash: "2 3",
                  finalAt,
                },
              ]
            : []),
          {
            key: "realSuccess",
            // An external run's real curve is its trainer's own episodes in the real environment.
            label: external ? "trainer's episodes, real env" : "test tasks, real env",
            color: "#4f46e5",
            finalAt,
          },
        ]}
      />
      {measuresGap ? (
        <CurveChart
          title="Sim-to-real gap"
          subtitle="test success, synthetic minus real env (points)"
          testId="gap-chart"
          data={view.gapRows}
          xMax={xMax}
          percent
          signed
          series={[{ key: "simGap", label: "sim-to-real gap", color: "#c11574", finalAt }]}
        />
      ) : null}
    </>
  );
}
