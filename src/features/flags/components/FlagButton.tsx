import styles from "../flags.module.css";

interface Props {
  flagged: boolean;
  /** Why this step cannot be flagged, or null when it can. */
  unavailable: string | null;
  /** Opens the note form, or (when unavailable) shows why not. */
  onOpen: () => void;
}

/**
 * Opens the note form for an unflagged synthetic step; a flagged step shows its banner instead. On a step that
 * holds no prediction the button stays, greyed, and pressing it says why (as the "f" shortcut does).
 */
export function FlagButton({ flagged, unavailable, onOpen }: Props) {
  if (flagged) return null;
  return (
    <button
      type="button"
      className={`${styles.flagButton} ${unavailable ? styles.unavailable : ""}`}
      onClick={onOpen}
      aria-disabled={unavailable ? true : undefined}
      title={unavailable ?? "Flag as hallucinated (f)"}
    >
      ⚑ Flag as hallucinated <kbd>f</kbd>
    </button>
  );
}
