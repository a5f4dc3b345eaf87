import { evaluatedOn } from "../configForm";
import styles from "../runs.module.css";
import type { RunView } from "../runView";
import type { RunData } from "../types";
import { CurveChart } from "./CurveChart";
import { ProxyCharts } from "./ProxyCharts";
import { SuccessCharts } from "./SuccessCharts";

/** The run's curves, drawn toward its planned last iteration so that a live run's grow into the charts. */
export function RunCharts({ run: r, view }: { run: RunData; view: RunView }) {
  return (
    <div className={styles.charts}>
      {view.imported ? (
        <ProxyCharts view={view} xMax={r.plannedIterations} />
      ) : (
        <SuccessCharts view={view} heldOut={evaluatedOn(r.config)} xMax={r.plannedIterations} />
      )}
      <CurveChart
        title="Mean reward"
        subtitle="of the iteration's rollouts"
        testId="reward-chart"
        data={view.rows}
        xMax={r.plannedIterations}
        series={[{ key: "meanReward", label: "mean reward", color: "#0e9384" }]}
      />
      <CurveChart
        title="Transitions used"
        subtitle="cumulative"
        testId="transitions-chart"
        data={view.rows}
        xMax={r.plannedIterations}
        series={[
          { key: "realTransitions", label: "real", color: "#dc6803" },
          { key: "syntheticTransitions", label: "synthetic", color: "#98a2b3", dash: "5 4" },
        ]}
      />
    </div>
  );
}
