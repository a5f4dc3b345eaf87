/**
 * What a background task of the server (the stale sweep, indexing, warming, the lease's renewal) met: logged, as
 * nothing waits for its result, and the task runs again at its next turn.
 */
export function logFailure(what: string, error: unknown): void {
  console.error(`env server: ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
}
