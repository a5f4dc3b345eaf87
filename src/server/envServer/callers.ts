/**
 * Who is calling, for the per-client share of the slots and for the HTTP routes' default episode: the bearer token
 * when there is one (a person's session, or the server's own token: every trainer using it is one client), else
 * the client's address. Several processes on one machine without tokens are therefore one client: they should
 * name their episodes (episode_id) rather than rely on "my most recent episode".
 */
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";

export function callerOf(req: IncomingMessage): string {
  const token = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1]?.trim();
  // A digest, never the token itself: the key is kept in memory and shown in no answer.
  if (token) return `token:${createHash("sha256").update(token).digest("hex").slice(0, 32)}`;
  return `address:${req.socket.remoteAddress ?? "unknown"}`;
}
