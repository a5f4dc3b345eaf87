import { PRESETS } from "../presets";
import styles from "../runs.module.css";

const DOMAINS = [
  { domain: "shop", label: "shop (WebShop)" },
  { domain: "household", label: "household (ALFWorld)" },
] as const;

/** The presets by domain, to start the form from one of the paper's methods. */
export function PresetBar({ presetId, onChoose }: { presetId: string; onChoose: (id: string) => void }) {
  return (
    <section className={`panel ${styles.presetBar}`}>
      <label className="field">
        Preset
        <select
          aria-label="Preset"
          value={presetId}
          onChange={(e) => onChoose(e.target.value)}
          style={{ minWidth: 280 }}
        >
          {DOMAINS.map(({ domain, label }) => (
            <optgroup key={domain} label={label}>
              {PRESETS.filter((p) => p.domain === domain).map((p) => (
                <option key={p.id} value={p.id}>
                  {domain} · {p.label}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      <p className="hint" style={{ margin: 0, maxWidth: 640 }}>
        Presets are the paper's methods, read from <span className="mono">configs/*.json</span>; the quick
        forms finish in minutes on a laptop. Settings a method does not read are dimmed.
      </p>
    </section>
  );
}
