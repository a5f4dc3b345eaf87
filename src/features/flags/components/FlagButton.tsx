import styles from "../flags.module.css";

/** Opens the note form for an unflagged step; a flagged step shows its banner instead. */
export function FlagButton({ flagged, onOpen }: { flagged: boolean; onOpen: () => void }) {
  if (flagged) return null;
  return (
    <button type="button" className={styles.flagButton} onClick={onOpen} title="Flag as hallucinated (f)">
      ⚑ Flag as hallucinated <kbd>f</kbd>
    </button>
  );
}
