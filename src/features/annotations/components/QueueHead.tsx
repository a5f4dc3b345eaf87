import styles from "../annotations.module.css";
import { WhoAmI } from "./WhoAmI";

interface Props {
  name: string;
  role: string;
  canReview: boolean;
  onCheatsheet: () => void;
}

/** The keys that work the queue, the way to all of them, and whom reviews are signed by. */
export function QueueHead({ name, role, canReview, onCheatsheet }: Props) {
  return (
    <div className={styles.head} style={{ marginBottom: 12 }}>
      <span className="hint">
        <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>a</kbd> accept · <kbd>e</kbd> edit · <kbd>r</kbd> reject ·{" "}
        <kbd>u</kbd> undo · <kbd>s</kbd> select ·{" "}
        <button type="button" className="hint" style={{ padding: "0 6px" }} onClick={onCheatsheet}>
          <kbd>?</kbd> all shortcuts
        </button>
      </span>
      <WhoAmI name={name} role={role} canReview={canReview} />
    </div>
  );
}
