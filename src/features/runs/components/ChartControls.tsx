"use client";

import { useChartSettings } from "../chart/ChartSettings";
import { SMOOTHING_MAX, smoothingOf } from "../chart/smoothing";
import { formatX, X_LABELS, X_MODES, xModeOf } from "../chart/xAxis";
import styles from "../runs.module.css";

/** The charts' shared controls: x axis, smoothing, and the zoom's range with its reset. */
export function ChartControls() {
  const { xMode, smoothing, zoom, setXMode, setSmoothing, setZoom } = useChartSettings();
  return (
    <div className={styles.chartControls} data-testid="chart-controls">
      <label className={styles.control}>
        X axis
        <select aria-label="X axis" value={xMode} onChange={(e) => setXMode(xModeOf(e.target.value))}>
          {X_MODES.map((m) => (
            <option key={m} value={m}>
              {X_LABELS[m]}
            </option>
          ))}
        </select>
      </label>
      <label
        className={styles.control}
        title="exponential moving average, as TensorBoard's; the raw values stay faint behind"
      >
        Smoothing
        <input
          type="range"
          aria-label="Smoothing"
          min={0}
          max={SMOOTHING_MAX}
          step={0.01}
          value={smoothing}
          onChange={(e) => setSmoothing(Number(e.target.value))}
        />
        <input
          type="number"
          aria-label="Smoothing weight"
          className={styles.smoothingNumber}
          min={0}
          max={SMOOTHING_MAX}
          step={0.05}
          value={smoothing}
          onChange={(e) => setSmoothing(smoothingOf(e.target.value))}
        />
      </label>
      <span className="hint">Drag across a chart to zoom.</span>
      {zoom ? (
        <>
          <span className="hint" data-testid="zoom-range">
            {formatX(xMode, zoom[0])} – {formatX(xMode, zoom[1])}
          </span>
          <button type="button" onClick={() => setZoom(null)}>
            Reset zoom
          </button>
        </>
      ) : null}
    </div>
  );
}
