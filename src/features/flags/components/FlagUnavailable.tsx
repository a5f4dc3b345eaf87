import styles from "../flags.module.css";

/** Why the flag (button or "f") does nothing on this step, said where the note form would have opened. */
export function FlagUnavailable({ reason, onClose }: { reason: string; onClose: () => void }) {
  return (
    <div className={`${styles.unavailableNote} row`} role="status" data-testid="flag-unavailable">
      <span style={{ flex: 1 }}>{reason}</span>
      <button type="button" className="hint" onClick={onClose} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}
