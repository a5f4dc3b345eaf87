"use client";

import styles from "./ShortcutCheatsheet.module.css";

export interface CheatsheetEntry {
  keys: string[];
  description: string;
}

/** The "?" overlay: every shortcut of a page, read from the same list that binds them. */
export function ShortcutCheatsheet({
  entries,
  onClose,
}: {
  entries: CheatsheetEntry[];
  onClose: () => void;
}) {
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: clicking the backdrop closes; Escape is bound too
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape is handled by the page's shortcuts
    <div className={styles.dialogBackdrop} onClick={onClose}>
      <div
        className={styles.dialog}
        role="dialog"
        aria-modal="true"
        aria-label="Keyboard shortcuts"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => e.stopPropagation()}
      >
        <h2>Keyboard shortcuts</h2>
        <table>
          <tbody>
            {entries.map((e) => (
              <tr key={e.description}>
                <td>
                  {e.keys.map((k, i) => (
                    <span key={k}>
                      {i > 0 ? " " : ""}
                      <kbd>{k}</kbd>
                    </span>
                  ))}
                </td>
                <td>{e.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="hint" style={{ marginBottom: 0 }}>
          Shortcuts are off while you type in a field. <kbd>Esc</kbd> closes this.
        </p>
      </div>
    </div>
  );
}
