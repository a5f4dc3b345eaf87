import net from "node:net";
import type { Db } from "../db";

/**
 * How many failed sign-ins are allowed before sign-in is refused, and for how long. Per account: 10 wrong
 * passwords in 15 minutes lock that account's password sign-in for 15 minutes, wherever the guesses come from. Per
 * client address: 50, since a team behind one proxy or NAT shares an address and mistypes too; it stops one machine
 * trying a few passwords on every account. A correct password clears its account's count.
 */
export const SIGN_IN_LIMITS = {
  account: { failures: 10, windowMinutes: 15, lockMinutes: 15 },
  address: { failures: 50, windowMinutes: 15, lockMinutes: 15 },
} as const;

type Scope = keyof typeof SIGN_IN_LIMITS;

export interface ThrottleKey {
  scope: Scope;
  /** SignInThrottle.key: "account:<lower-cased email>" or "address:<client address>". */
  key: string;
}

/**
 * The counters one sign-in attempt counts against. An IPv6 client is counted by its /64, which one machine usually
 * has whole (counting single IPv6 addresses would give it 2^64 tries).
 */
export function throttleKeys(email: string | null, address: string | null): ThrottleKey[] {
  const keys: ThrottleKey[] = [];
  if (email) keys.push({ scope: "account", key: `account:${email.trim().toLowerCase()}` });
  if (address)
    keys.push({ scope: "address", key: `address:${net.isIPv6(address) ? ipv6Network(address) : address}` });
  return keys;
}

/** The /64 an IPv6 address belongs to, written in full: 2001:db8:0:1::5 → 2001:db8:0:1::/64. */
function ipv6Network(address: string): string {
  // An IPv4 address written at the end (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) stands for two groups.
  const hex = address
    .toLowerCase()
    .replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) =>
      [((+a << 8) | +b).toString(16), ((+c << 8) | +d).toString(16)].join(":"),
    );
  const [head = "", tail = ""] = hex.split("::");
  const left = head ? head.split(":") : [];
  const right = hex.includes("::") ? (tail ? tail.split(":") : []) : [];
  const groups = [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

export interface Refusal {
  scope: Scope;
  until: Date;
}

const minutes = (n: number) => n * 60_000;

/**
 * Counts an attempt before its password is checked, so that guesses sent all at once are counted as they arrive
 * rather than after they all passed a check; settle() takes back what was not a wrong password. Refused (with the
 * time the lock ends) when a counter is locked, or when this attempt goes past its limit, which locks it.
 */
export async function reserveAttempt(db: Db, keys: ThrottleKey[], now = new Date()): Promise<Refusal | null> {
  const rows = await db.signInThrottle.findMany({ where: { key: { in: keys.map((k) => k.key) } } });
  for (const { scope, key } of keys) {
    const until = rows.find((r) => r.key === key)?.lockedUntil;
    if (until && until > now) return { scope, until };
  }
  for (const [i, { scope, key }] of keys.entries()) {
    const rule = SIGN_IN_LIMITS[scope];
    // A window that has passed starts again with this attempt.
    await db.signInThrottle.updateMany({
      where: { key, windowStart: { lte: new Date(now.getTime() - minutes(rule.windowMinutes)) } },
      data: { failures: 0, windowStart: now },
    });
    const counted = await db.signInThrottle.upsert({
      where: { key },
      create: { key, failures: 1, windowStart: now },
      update: { failures: { increment: 1 } },
    });
    if (counted.failures > rule.failures) {
      const until = new Date(now.getTime() + minutes(rule.lockMinutes));
      await db.signInThrottle.update({ where: { key }, data: { lockedUntil: until } });
      // The counters before this one were counted for an attempt that will not be made.
      await settleAttempt(db, keys.slice(0, i), "not-checked", now);
      return { scope, until };
    }
  }
  return null;
}

/** What the password check said: wrong (the attempt stays counted), right, or neither (a malformed request…). */
export type Outcome = "wrong-password" | "signed-in" | "not-checked";

/**
 * Settles a reserved attempt. A wrong password stays counted, and the one that reaches a limit locks its counter
 * from now. A right one clears its account's count; the address keeps its other failures, since one good password
 * must not buy more guesses at other accounts. Anything else is taken back.
 */
export async function settleAttempt(
  db: Db,
  keys: ThrottleKey[],
  outcome: Outcome,
  now = new Date(),
): Promise<void> {
  for (const { scope, key } of keys) {
    const rule = SIGN_IN_LIMITS[scope];
    if (outcome === "wrong-password")
      await db.signInThrottle.updateMany({
        where: {
          key,
          failures: { gte: rule.failures },
          OR: [{ lockedUntil: null }, { lockedUntil: { lte: now } }],
        },
        data: { lockedUntil: new Date(now.getTime() + minutes(rule.lockMinutes)) },
      });
    else if (outcome === "signed-in" && scope === "account")
      await db.signInThrottle.deleteMany({ where: { key } });
    else
      await db.signInThrottle.updateMany({
        where: { key, failures: { gt: 0 } },
        data: { failures: { decrement: 1 } },
      });
  }
}

/** The refusal as people read it: whose sign-ins, and when to try again. */
export function refusalMessage(refusal: Refusal, now = new Date()): string {
  const wait = Math.max(1, Math.ceil((refusal.until.getTime() - now.getTime()) / 60_000));
  const at = refusal.until.toISOString().slice(11, 16);
  const whose = refusal.scope === "account" ? "for this account" : "from your address";
  return `Too many failed sign-ins ${whose}. Try again in ${wait} minute${wait === 1 ? "" : "s"} (after ${at} UTC).`;
}
