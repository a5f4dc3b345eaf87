import styles from "../runs.module.css";
import { Marker } from "./ChartMarkers";
import type { Series } from "./series";

/** A series' look in small: its colour, dash pattern and marker, as its line is drawn (legends, tables). */
export function SeriesSwatch({ series }: { series: Series }) {
  return (
    <svg width={40} height={12} aria-hidden="true" className={styles.seriesSwatch}>
      <line
        x1={1}
        x2={39}
        y1={6}
        y2={6}
        stroke={series.color}
        strokeWidth={2}
        strokeDasharray={series.dash || undefined}
      />
      <Marker shape={series.shape ?? "circle"} cx={20} cy={6} r={3.5} color={series.color} />
    </svg>
  );
}

/** The legend: each series' colour, dash pattern and marker, as drawn, and the final evaluation's mark. */
export function SeriesLegend({ series }: { series: Series[] }) {
  const withFinal = series.some((s) => s.finalAt !== undefined && s.finalAt !== null);
  return (
    <ul className={styles.legend} data-testid="chart-legend">
      {series.map((s) => (
        <li
          key={s.key}
          data-testid="legend-item"
          data-dash={s.dash || "solid"}
          data-shape={s.shape ?? "circle"}
        >
          <SeriesSwatch series={s} />
          {s.label}
        </li>
      ))}
      {withFinal ? (
        <li data-testid="legend-final">
          <svg width={14} height={12} aria-hidden="true">
            <circle cx={7} cy={6} r={4.5} fill="#fff" stroke="#667085" strokeWidth={2.5} />
          </svg>
          final evaluation
        </li>
      ) : null}
    </ul>
  );
}
