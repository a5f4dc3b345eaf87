/**
 * One failed request to a remote environment, sorted by what the episode should do about it. Only `refused` is
 * final: the server understood the request and said no (a wrong URL or token, a body it rejects), and asking again
 * would get the same answer. The other kinds are retried, by rebuilding the episode where the session may be gone.
 */

/**
 * - `unavailable`: no answer (refused or dropped connection, timeout) or a status that says "later" (5xx, 408, 429);
 * - `malformed`: an answer that cannot be read (bad JSON, missing fields, an `{error}` body in place of a result);
 * - `lost`: the server no longer knows the session (restarted, idled out);
 * - `refused`: a 4xx that asking again will not change.
 */
export type FailureKind = "unavailable" | "malformed" | "lost" | "refused";

export class RequestFailure extends Error {
  override readonly name = "RequestFailure";
  constructor(
    readonly kind: FailureKind,
    /** What was asked, e.g. "POST http://host:36001/step". */
    readonly request: string,
    readonly detail: string,
    readonly status?: number,
  ) {
    super(`${request}: ${detail}`);
  }

  get retryable(): boolean {
    return this.kind !== "refused";
  }
}

const EXCERPT = 300;

/** The start of a reply body, on one line, for messages that must say what the server answered. */
export function excerpt(body: string): string {
  const line = body.replace(/\s+/g, " ").trim();
  return line.length > EXCERPT ? `${line.slice(0, EXCERPT)}…` : line;
}

/**
 * What an HTTP status means for the episode. A 404 on a session that was open means the server forgot it (DreamGym's
 * UNKNOWN_EPISODE after a restart); on a first request it means the URL is wrong, which no retry fixes.
 */
export function kindOfStatus(status: number, sessionOpen: boolean): FailureKind {
  if (status >= 500 || status === 408 || status === 429) return "unavailable";
  if (status === 404 && sessionOpen) return "lost";
  return "refused";
}
