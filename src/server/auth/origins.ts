import { type Config, config } from "@/env";

/** Where people reach the app: the configured URL, else the address it listens on. */
export function publicUrl(settings: Config = config()): string {
  return settings.auth.url ?? `http://${settings.host}:${settings.port}`;
}

/**
 * The origins the app's own pages are served from, whatever host a request names: the public URL (with the same
 * machine's other names for loopback, since a browser may open 127.0.0.1 or localhost) and the origins
 * DREAMGYM_TRUSTED_ORIGINS adds for a proxy. Better Auth checks its own requests against the same list.
 */
export function appOrigins(settings: Config = config()): string[] {
  const url = new URL(publicUrl(settings));
  const own = ["127.0.0.1", "localhost", "0.0.0.0"].includes(url.hostname)
    ? ["127.0.0.1", "localhost"].map((host) => new URL(`${url.protocol}//${host}:${url.port}`).origin)
    : [url.origin];
  return [...new Set([...own, ...settings.auth.trustedOrigins])];
}
