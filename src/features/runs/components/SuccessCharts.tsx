import type { PlotRow } from "../chart/xAxis";
import type { CurveRow } from "../curves";
import type { RunView } from "../runView";
import { CurveChart } from "./CurveChart";

interface Props {
  view: RunView;
  /** Puts rows on the page's x axis. */
  place: (rows: CurveRow[]) => PlotRow[];
  /** Where the final evaluation lies on that axis. */
  finalX: number | null;
  heldOut: string;
  xMax: number | null;
}

/**
 * A run in a real environment: success in the real (and synthetic) environment per iteration, ending with the
 * final evaluation, and the sim-to-real gap when the run measured it.
 */
export function SuccessCharts({ view, place, finalX, heldOut, xMax }: Props) {
  const { external, measuresGap, finalAt } = view;
  const final = { finalAt, finalX };
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
        rows={place(view.successRows)}
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
                  ...final,
                },
              ]
            : []),
          {
            key: "realSuccess",
            // An external run's real curve is its trainer's own episodes in the real environment.
            label: external ? "trainer's episodes, real env" : "test tasks, real env",
            color: "#4f46e5",
            ...final,
          },
        ]}
      />
      {measuresGap ? (
        <CurveChart
          title="Sim-to-real gap"
          subtitle="test success, synthetic minus real env (points)"
          testId="gap-chart"
          rows={place(view.gapRows)}
          xMax={xMax}
          percent
          signed
          series={[{ key: "simGap", label: "sim-to-real gap", color: "#c11574", ...final }]}
        />
      ) : null}
    </>
  );
}
