/**
 * Sessions kept between episodes, for protocols whose sessions start over at every reset (AgentGym's: an id from
 * /create is reset to any task, as AgentGym's own clients do). Creating one is what costs on those servers
 * (ALFWorld loads a game engine per id) and some servers never free one (ALFWorld and WebShop have no /close), so an
 * episode takes an idle session before it creates one. At most `concurrency` wait idle per environment, and a
 * session idle for a minute is closed.
 */
import type { RemoteSession } from "./session";

const IDLE_MS = 60_000;

interface Idle {
  session: RemoteSession;
  timer: NodeJS.Timeout;
}

const byName = new Map<string, Idle[]>();

/** An idle session of the environment, most recently used first (the least likely to have been reaped). */
export function takeIdle(name: string): RemoteSession | undefined {
  const idle = byName.get(name)?.pop();
  if (!idle) return undefined;
  clearTimeout(idle.timer);
  return idle.session;
}

/** Keeps a session that ended well for the next episode, or closes it when enough are kept. */
export async function keepIdle(name: string, limit: number, session: RemoteSession): Promise<void> {
  const list = byName.get(name) ?? [];
  byName.set(name, list);
  if (list.length >= limit) return session.close();
  const timer = setTimeout(() => {
    const at = list.findIndex((i) => i.session === session);
    if (at >= 0) list.splice(at, 1);
    void session.close();
  }, IDLE_MS);
  timer.unref();
  list.push({ session, timer });
}

/** Closes the environment's idle sessions (every environment's without a name): at shutdown, or to free a server. */
export async function closeIdleSessions(name?: string): Promise<void> {
  const names = name === undefined ? [...byName.keys()] : [name];
  const closing: Promise<void>[] = [];
  for (const n of names) {
    for (const idle of byName.get(n) ?? []) {
      clearTimeout(idle.timer);
      closing.push(idle.session.close());
    }
    byName.delete(n);
  }
  await Promise.all(closing);
}
