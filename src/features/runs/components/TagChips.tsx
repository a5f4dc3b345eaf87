import styles from "../runs.module.css";

/** A run's tags as chips; with `onRemove`, each chip has a button that takes it off. */
export function TagChips({ tags, onRemove }: { tags: readonly string[]; onRemove?: (tag: string) => void }) {
  if (tags.length === 0) return null;
  return (
    <ul className={styles.tags} aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag} className={styles.tag}>
          <span data-testid="run-tag">{tag}</span>
          {onRemove ? (
            <button type="button" aria-label={`Remove tag ${tag}`} onClick={() => onRemove(tag)}>
              ×
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
