import net from "node:net";
import { z } from "zod";

/**
 * An origin a browser names in its Origin header: scheme, host and port, nothing after. Normalised as browsers
 * write it (lower case, no default port), so that it compares equal to the header.
 */
export const Origin = z.string().transform((text, ctx) => {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    // Reported below.
  }
  if (
    !url ||
    !["http:", "https:"].includes(url.protocol) ||
    url.username ||
    url.password ||
    url.pathname !== "/" ||
    url.search ||
    url.hash
  ) {
    ctx.addIssue({
      code: "custom",
      message: `"${text}" is not an origin: write it as scheme://host[:port], with nothing after`,
    });
    return z.NEVER;
  }
  return url.origin;
});

/** A proxy by its address or by a CIDR range of addresses (10.0.0.5, 10.0.0.0/8, fd00::/8). */
export const ProxyAddress = z
  .string()
  .trim()
  .refine(
    (text) => {
      const [address = "", prefix, ...rest] = text.split("/");
      const family = net.isIP(address);
      if (family === 0 || rest.length > 0) return false;
      if (prefix === undefined) return true;
      const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : Number.NaN;
      return bits >= 0 && bits <= (family === 4 ? 32 : 128);
    },
    { message: "a trusted proxy is an IP address or a CIDR range (10.0.0.5, 10.0.0.0/8, fd00::/8)" },
  );

/** A comma- or space-separated list from one environment variable; undefined when the variable is unset or empty. */
export function listFromEnv(value: string | undefined): string[] | undefined {
  const items = (value ?? "").split(/[\s,]+/).filter((item) => item.length > 0);
  return items.length > 0 ? items : undefined;
}
