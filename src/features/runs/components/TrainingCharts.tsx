import type { PlotRow } from "../chart/xAxis";
import { SERIES_COLORS } from "../format";
import { TRAINING_CHARTS, TRAINING_COLUMNS } from "../trainingMetrics";
import { CurveChart } from "./CurveChart";

/**
 * The RL update's figures: loss, KL, entropy and clip fraction, one panel each, as TensorBoard's losses/* and
 * charts/*. A panel none of whose series the run recorded (a BC run has no clip fraction) is left out.
 */
export function TrainingCharts({ rows, xMax }: { rows: PlotRow[]; xMax: number | null }) {
  return (
    <>
      {TRAINING_CHARTS.map((chart) => {
        const columns = chart.columns.filter((c) => rows.some((r) => typeof r[c] === "number"));
        if (columns.length === 0) return null;
        return (
          <CurveChart
            key={chart.id}
            title={chart.title}
            subtitle={chart.subtitle}
            testId={`${chart.id}-chart`}
            rows={rows}
            xMax={xMax}
            percent={chart.percent}
            series={columns.map((c, i) => ({
              key: c,
              label: TRAINING_COLUMNS[c].label,
              color: SERIES_COLORS[(i * 3 + chart.columns.length) % SERIES_COLORS.length] as string,
              dash: i === 0 ? undefined : "5 4",
            }))}
          />
        );
      })}
    </>
  );
}
