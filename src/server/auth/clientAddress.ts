import type { IncomingMessage } from "node:http";
import net from "node:net";

/**
 * Headers by which a proxy tells who its client was and how they connected. Anyone can send them; they are believed
 * only from a trusted proxy (DREAMGYM_TRUSTED_PROXIES).
 */
const PROXY_HEADERS = [
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "x-real-ip",
  "forwarded",
];

/** Set by DreamGym's web server, in the process that also runs the app's routes (scripts/web.ts). */
const STAMPED = Symbol.for("dreamgym.clientAddressStamped");

/** The trusted proxies as a set to test addresses against (entries validated by the config: address or CIDR). */
export function trustedProxySet(entries: readonly string[]): net.BlockList {
  const set = new net.BlockList();
  for (const entry of entries) {
    const [address = "", prefix] = entry.split("/");
    const family = net.isIPv6(address) ? "ipv6" : "ipv4";
    if (prefix === undefined) set.addAddress(address, family);
    else set.addSubnet(address, Number(prefix), family);
  }
  return set;
}

/** An address as one client is known by: IPv4 written plainly, even when it arrives IPv4-mapped (::ffff:a.b.c.d). */
function plain(address: string): string | null {
  const trimmed = address.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  const ip = mapped ? (mapped[1] as string) : trimmed;
  return net.isIP(ip) ? ip : null;
}

function isTrusted(trusted: net.BlockList, address: string): boolean {
  return trusted.check(address, net.isIPv6(address) ? "ipv6" : "ipv4");
}

/**
 * The client behind a connection from `peer`. A peer that is not a trusted proxy is the client, whatever its
 * headers claim. A trusted proxy's X-Forwarded-For is read from the right, where each proxy appended the address it
 * was connected from: the first address that is not a trusted proxy is the client (entries to its left were written
 * by the client itself, and prove nothing). Null when the peer is unknown or the header is unreadable.
 */
export function resolveClientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: net.BlockList,
): string | null {
  const from = peer ? plain(peer) : null;
  if (!from || !isTrusted(trusted, from)) return from;
  const hops = (forwardedFor ?? "").split(",").filter((hop) => hop.trim().length > 0);
  let client = from;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = plain(hops[i] as string);
    if (!hop) return null;
    client = hop;
    if (!isTrusted(trusted, hop)) break;
  }
  return client;
}

/**
 * Run by DreamGym's web server on every request before Next.js reads it: X-Forwarded-For becomes the one address
 * the request came from (resolveClientAddress), and from a client that is not a trusted proxy the other proxy
 * headers are dropped, so that nothing downstream (the sign-in throttle, Better Auth's own limits and session
 * records) can be told another address.
 */
export function stampClientAddress(request: IncomingMessage, trusted: net.BlockList): void {
  const peer = request.socket.remoteAddress;
  const forwarded = request.headers["x-forwarded-for"];
  const client = resolveClientAddress(
    peer,
    Array.isArray(forwarded) ? forwarded.join(",") : forwarded,
    trusted,
  );
  const fromProxy = peer !== undefined && plain(peer) !== null && isTrusted(trusted, plain(peer) as string);
  if (!fromProxy) for (const header of PROXY_HEADERS) delete request.headers[header];
  if (client) request.headers["x-forwarded-for"] = client;
  else delete request.headers["x-forwarded-for"];
}

/** Says, for this process, that every request's X-Forwarded-For was written by stampClientAddress. */
export function markClientAddressesStamped(): void {
  (globalThis as Record<symbol, unknown>)[STAMPED] = true;
}

let warned = false;

/**
 * The address a request to the app came from, as DreamGym's web server wrote it; null under any other server
 * (`next dev`, a bare `next start`), where X-Forwarded-For may be whatever the client sent.
 */
export function clientAddress(headers: Headers): string | null {
  if ((globalThis as Record<symbol, unknown>)[STAMPED] !== true) {
    if (!warned) {
      warned = true;
      console.warn(
        "[auth] client addresses are unknown under this server (start the app with npm start): failed sign-ins are counted per account only",
      );
    }
    return null;
  }
  const value = headers.get("x-forwarded-for");
  return value ? plain(value) : null;
}
