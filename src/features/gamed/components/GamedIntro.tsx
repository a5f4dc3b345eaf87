import Link from "next/link";
import styles from "../gamed.module.css";

interface Props {
  /** The run's name, once known; the page may cover all runs. */
  runName: string | null;
  /** The run the page is fixed to, to go back to. */
  runId: string | undefined;
  onCheatsheet: () => void;
}

/** What the page ranks and how, and the keys that work it. */
export function GamedIntro({ runName, runId, onCheatsheet }: Props) {
  return (
    <div>
      <div className={styles.header}>
        <h1>Where the model is gamed{runName !== null ? `: ${runName}` : ""}</h1>
        {runId ? (
          <Link href={`/runs/${runId}`} className="hint">
            ← back to the run
          </Link>
        ) : null}
      </div>
      <p className="sub" style={{ marginBottom: 0 }}>
        Synthetic episodes ranked by their excess: the synthetic return the experience model paid, minus the
        real return the real environment gives the same actions replayed from the same start. Each opens in
        the step view at the first step where the two part.{" "}
        <button type="button" className="hint" style={{ padding: "0 6px" }} onClick={onCheatsheet}>
          <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>Enter</kbd> open · <kbd>?</kbd> shortcuts
        </button>
      </p>
    </div>
  );
}
