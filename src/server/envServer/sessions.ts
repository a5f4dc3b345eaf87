/**
 * Sessions: what holds one of the server's slots (a WebSocket connection, an HTTP episode, an AgentGym
 * environment id), each with at most one episode at a time. The cap counts slots, and each client (callers.ts)
 * may hold only its share of them. An idle slot is freed after the idle timeout; an idle HTTP episode is freed
 * sooner when the server is full, least recently used first. Either way its episode is recorded as abandoned.
 */
import { randomUUID } from "node:crypto";
import { LRUCache } from "lru-cache";
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
    /** Who opened it (callers.ts): the per-client cap and the HTTP routes' default episode go by it. */
    readonly client: string,
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
  /** Slots one client may hold at once; three quarters of the cap when unset, so others always get in. */
  maxSessionsPerClient?: number;
}

/** A client's share of the slots when none is set. */
export function defaultPerClient(maxSessions: number): number {
  return Math.max(1, Math.ceil((maxSessions * 3) / 4));
}

export class Sessions {
  private readonly open = new Map<string, Session>();
  private readonly perClient = new Map<string, number>();
  /** HTTP episodes by the id the client addresses them by. */
  private readonly byEpisode = new Map<string, Session>();
  /** Each client's most recent HTTP episode: OpenEnv's HTTP clients step and read /state without an id. */
  private readonly latest = new LRUCache<string, string>({ max: 10_000 });
  /** Why an episode id is no longer served (ended, idled out, evicted), for a clear answer; bounded. */
  private readonly gone = new Map<string, string>();
  private readonly sweeper: NodeJS.Timeout;
  readonly clientCap: number;

  constructor(
    readonly limits: SessionLimits,
    private readonly abandon: (session: Session) => void,
  ) {
    this.clientCap = Math.min(
      limits.maxSessions,
      limits.maxSessionsPerClient ?? defaultPerClient(limits.maxSessions),
    );
    this.sweeper = setInterval(() => this.sweep(), Math.max(50, Math.min(1_000, limits.idleMs / 4)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.open.size;
  }

  all(): Session[] {
    return [...this.open.values()];
  }

  add(kind: SessionKind, client: string, tag?: Record<string, unknown>): Session {
    this.makeRoom(client);
    const session = new Session(kind, client, tag);
    this.open.set(session.id, session);
    this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
    return session;
  }

  /**
   * A slot for the client: past its share, its own least recently used idle HTTP episode goes; past the cap,
   * anyone's. A WebSocket or AgentGym session is never taken: its client still holds it open.
   */
  private makeRoom(client: string): void {
    if ((this.perClient.get(client) ?? 0) >= this.clientCap && !this.evictIdleHttp(client))
      throw new EnvServerError(
        "CAPACITY_REACHED",
        `you hold ${this.clientCap} sessions, a client's share of this server's ${this.limits.maxSessions}: close one (POST /close for an HTTP episode) or retry later`,
      );
    if (this.open.size >= this.limits.maxSessions && !this.evictIdleHttp())
      throw new EnvServerError(
        "CAPACITY_REACHED",
        `all ${this.limits.maxSessions} sessions are in use; close one or retry later`,
      );
  }

  private evictIdleHttp(client?: string): boolean {
    let oldest: Session | undefined;
    for (const s of this.open.values())
      if (
        s.kind === "http" &&
        s.inFlight === 0 &&
        (client === undefined || s.client === client) &&
        (oldest === undefined || s.lastActive < oldest.lastActive)
      )
        oldest = s;
    if (!oldest) return false;
    this.close(
      oldest,
      "was abandoned: the server was full and it was the least recently used idle HTTP episode (POST /close frees a slot)",
    );
    return true;
  }

  bindEpisode(session: Session, episodeId: string): void {
    this.byEpisode.set(episodeId, session);
    if (session.kind === "http") this.latest.set(session.client, episodeId);
  }

  /** The client's most recent HTTP episode id, if it started one. */
  latestEpisode(client: string): string | undefined {
    return this.latest.get(client);
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
    const held = (this.perClient.get(session.client) ?? 1) - 1;
    if (held > 0) this.perClient.set(session.client, held);
    else this.perClient.delete(session.client);
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
