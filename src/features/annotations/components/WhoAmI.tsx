import styles from "../annotations.module.css";

/** Reviews are signed by whoever is signed in; a role that may not review reads the queue as it is. */
export function WhoAmI({ name, role, canReview }: { name: string; role: string; canReview: boolean }) {
  return (
    <div className={styles.whoami} data-testid="annotator">
      <span className={styles.avatar} aria-hidden="true">
        {name[0]?.toUpperCase()}
      </span>
      {canReview ? (
        <span>
          Reviewing as <strong style={{ color: "var(--ink)" }}>{name}</strong>
        </span>
      ) : (
        <span>Read-only: your role ({role}) may not review; an admin can make you an annotator</span>
      )}
    </div>
  );
}
