import Link from "next/link";
import styles from "../episodes.module.css";
import { episodeHref } from "../lib/explorerParams";

interface Props {
  carried: string;
  adjacent:
    | { position: number | null; total: number; previousId: string | null; nextId: string | null }
    | undefined;
}

/** Back to the filtered list, and the previous and next episodes in it. */
export function EpisodeNav({ carried, adjacent }: Props) {
  return (
    <div className={styles.topbar}>
      <Link href={`/trajectories${carried}`} className="hint">
        ← Trajectories{carried ? " (filtered)" : ""}
      </Link>
      <div className={styles.episodeNav}>
        {adjacent ? (
          <span className="hint" data-testid="episode-position">
            {adjacent.position !== null
              ? `Episode ${adjacent.position} of ${adjacent.total}`
              : `not in this list of ${adjacent.total}`}
          </span>
        ) : null}
        {adjacent?.previousId ? (
          <Link href={episodeHref(adjacent.previousId, carried)} title="Previous episode (p)">
            ‹ previous <kbd>p</kbd>
          </Link>
        ) : (
          <span className={styles.disabled}>‹ previous</span>
        )}
        {adjacent?.nextId ? (
          <Link href={episodeHref(adjacent.nextId, carried)} title="Next episode (n)">
            next <kbd>n</kbd> ›
          </Link>
        ) : (
          <span className={styles.disabled}>next ›</span>
        )}
      </div>
    </div>
  );
}
