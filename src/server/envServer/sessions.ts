/**
 * Sessions: what holds one of the server's slots (a WebSocket connection, an HTTP episode, an AgentGym
 * environment id), each with at most one episode at a time. The cap counts slots; an idle slot is freed after the
 * idle timeout and its episode recorded as abandoned.
 */
import { randomUUID } from "node:crypto";
import type { Episode } from "./episode";
import { EnvServerError } from "./errors";

export type SessionKind = "ws" | "http" | "agentgym";

export class Session {
  readonly id = randomUUID();
  episode: Episode | undefined;
  lastActive = Date.now();
  closed = false;
  /** Requests being answered: a session waiting on the server (a slow reset) is not idle. */
  inFlight = 0;
  /** Told when the server frees the session on its own (idle timeout, shutdown): a WebSocket closes. */
  onExpire: ((reason: string) => void) | undefined;

  constructor(
    readonly kind: SessionKind,
    /** Protocol-specific data, e.g. the AgentGym environment's number and defaults for its resets. */
    readonly tag: Record<string, unknown> = {},
  ) {}

  touch(): void {
    this.lastActive = Date.now();
  }
}

export interface SessionLimits {
  maxSessions: number;
  idleMs: number;
}

export class Sessions {
  private readonly open = new Map<string, Session>();
  /** HTTP episodes by the id the client addresses them by. */
  private readonly byEpisode = new Map<string, Session>();
  /** Why an episode id is no longer served (ended, idled out), for a clear answer; bounded. */
  private readonly gone = new Map<string, string>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    readonly limits: SessionLimits,
    private readonly abandon: (session: Session) => void,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.max(50, Math.min(1_000, limits.idleMs / 4)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.open.size;
  }

  all(): Session[] {
    return [...this.open.values()];
  }

  add(kind: SessionKind, tag?: Record<string, unknown>): Session {
    if (this.open.size >= this.limits.maxSessions)
      throw new EnvServerError(
        "CAPACITY_REACHED",
        `all ${this.limits.maxSessions} sessions are in use; close one or retry later`,
      );
    const session = new Session(kind, tag);
    this.open.set(session.id, session);
    return session;
  }

  bindEpisode(session: Session, episodeId: string): void {
    this.byEpisode.set(episodeId, session);
  }

  /** The HTTP session of an episode id, or why there is none. */
  byEpisodeId(episodeId: string): Session {
    const session = this.byEpisode.get(episodeId);
    if (session) return session;
    const why = this.gone.get(episodeId);
    throw new EnvServerError(
      why?.startsWith("ended") ? "EPISODE_DONE" : "UNKNOWN_EPISODE",
      why ? `episode ${episodeId} ${why}` : `no episode ${episodeId} on this server: reset first`,
    );
  }

  /** Frees a session, abandoning its episode if one is still going. */
  close(session: Session, why = "was closed"): void {
    if (session.closed) return;
    session.closed = true;
    this.open.delete(session.id);
    this.abandon(session);
    const id = session.episode?.id;
    if (id !== undefined && this.byEpisode.get(id) === session) {
      this.byEpisode.delete(id);
      this.forget(id, session.episode?.done && why === "ended" ? "ended: reset to start another" : why);
    }
  }

  private forget(episodeId: string, why: string): void {
    this.gone.set(episodeId, why);
    if (this.gone.size > 100_000) this.gone.delete(this.gone.keys().next().value as string);
  }

  private sweep(): void {
    const before = Date.now() - this.limits.idleMs;
    for (const session of this.open.values()) {
      if (session.lastActive >= before || session.inFlight > 0) continue;
      const reason = `was idle for more than ${Math.round(this.limits.idleMs / 1000)} s and was abandoned`;
      this.close(session, reason);
      session.onExpire?.(reason);
    }
  }

  stop(): void {
    clearInterval(this.sweeper);
  }
}
