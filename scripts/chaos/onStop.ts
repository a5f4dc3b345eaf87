/**
 * What a probe (chaos, soak) must undo when it is itself stopped by a signal: its `finally` blocks never run then,
 * and its workers live in process groups of their own that a terminal's Ctrl-C or a `kill` of the probe alone does
 * not reach. Each part registers its undo here while it exists; the first stop signal runs them all, newest first,
 * then the probe exits as the signal would have it (128 + its number).
 */
type Undo = () => void | Promise<void>;

const undos = new Set<Undo>();
let installed = false;

/** Registers an undo for a signal; the returned function takes it back (call it once the part is gone). */
export function onStop(undo: Undo): () => void {
  undos.add(undo);
  return () => undos.delete(undo);
}

/** How long the undos get (dropping a database, say) before the probe exits anyway. */
const UNDO_MS = 20_000;

const SIGNALS = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 } as const;

/** Makes SIGINT, SIGTERM and SIGHUP run the registered undos before exiting. A second signal exits at once. */
export function undoOnStopSignals(log: (line: string) => void = () => {}): void {
  if (installed) return;
  installed = true;
  let stopping = false;
  for (const [signal, number] of Object.entries(SIGNALS)) {
    process.on(signal, () => {
      if (stopping) process.exit(128 + number);
      stopping = true;
      log(`${signal}: stopping the probe's processes and removing what it made`);
      const timer = setTimeout(() => process.exit(128 + number), UNDO_MS);
      void runUndos(log).finally(() => {
        clearTimeout(timer);
        process.exit(128 + number);
      });
    });
  }
}

async function runUndos(log: (line: string) => void): Promise<void> {
  for (const undo of [...undos].reverse()) {
    try {
      await undo();
    } catch (error) {
      log(`while stopping: ${(error as Error).message}`);
    }
  }
  undos.clear();
}
