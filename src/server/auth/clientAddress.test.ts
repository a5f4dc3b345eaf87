import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { loadConfig } from "@/env";
import {
  clientAddress,
  markClientAddressesStamped,
  resolveClientAddress,
  stampClientAddress,
  trustedProxySet,
} from "./clientAddress";

const none = trustedProxySet([]);

describe("the client a request came from", () => {
  it("is the connection's address unless that is a trusted proxy, whatever the headers say", () => {
    expect(resolveClientAddress("198.51.100.4", "1.2.3.4", none)).toBe("198.51.100.4");
    expect(resolveClientAddress("::ffff:127.0.0.1", "1.2.3.4, 5.6.7.8", none)).toBe("127.0.0.1");
    expect(resolveClientAddress("2001:db8::9", undefined, none)).toBe("2001:db8::9");
    expect(resolveClientAddress(undefined, "1.2.3.4", none)).toBeNull();
  });

  it("is read from a trusted proxy's X-Forwarded-For from the right, up to the first untrusted hop", () => {
    const proxies = trustedProxySet(["10.0.0.0/8", "192.0.2.10"]);
    // The client wrote "6.6.6.6" itself; the proxies appended what they saw.
    expect(resolveClientAddress("10.0.0.2", "6.6.6.6, 203.0.113.5, 192.0.2.10", proxies)).toBe("203.0.113.5");
    expect(resolveClientAddress("10.0.0.2", "203.0.113.5", proxies)).toBe("203.0.113.5");
    // Only proxies all the way: the farthest one is the client.
    expect(resolveClientAddress("10.0.0.2", "10.1.1.1", proxies)).toBe("10.1.1.1");
    expect(resolveClientAddress("10.0.0.2", undefined, proxies)).toBe("10.0.0.2");
    expect(resolveClientAddress("10.0.0.2", "203.0.113.5, not-an-address", proxies)).toBeNull();
    expect(trustedProxySet(["fd00::/8"]).check("fd12::1", "ipv6")).toBe(true);
  });

  it("takes trusted proxies only as addresses or CIDR ranges", () => {
    const settings = loadConfig({ DATABASE_URL: "file:x.db", DREAMGYM_TRUSTED_PROXIES: "10.0.0.0/8, ::1" });
    expect(settings.auth.trustedProxies).toEqual(["10.0.0.0/8", "::1"]);
    expect(loadConfig({ DATABASE_URL: "file:x.db" }).auth.trustedProxies).toEqual([]);
    expect(() =>
      loadConfig({ DATABASE_URL: "file:x.db", DREAMGYM_TRUSTED_PROXIES: "proxy.internal" }),
    ).toThrow(/auth\.trustedProxies\.0: a trusted proxy is an IP address or a CIDR range/);
    expect(() => loadConfig({ DATABASE_URL: "file:x.db", DREAMGYM_TRUSTED_PROXIES: "10.0.0.0/33" })).toThrow(
      /trustedProxies/,
    );
  });
});

/** A server that stamps as DreamGym's web server does and answers with the headers the app would see. */
async function echoServer(trustedProxies: string[]) {
  const trusted = trustedProxySet(trustedProxies);
  const server = http.createServer((request, response) => {
    stampClientAddress(request, trusted);
    response.end(JSON.stringify(request.headers));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    seen: async (headers: Record<string, string>) =>
      (await (await fetch(url, { headers })).json()) as Record<string, string | undefined>,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe("DreamGym's web server", () => {
  it("tells the app the connection's address, not the one a client claims", async () => {
    const server = await echoServer([]);
    try {
      const seen = await server.seen({ "x-forwarded-for": "203.0.113.9", "x-real-ip": "203.0.113.9" });
      expect(seen["x-forwarded-for"]).toBe("127.0.0.1");
      expect(seen["x-real-ip"]).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it("believes a trusted proxy's header", async () => {
    const server = await echoServer(["127.0.0.1"]);
    try {
      const seen = await server.seen({
        "x-forwarded-for": "6.6.6.6, 203.0.113.9",
        "x-forwarded-proto": "https",
      });
      expect(seen["x-forwarded-for"]).toBe("203.0.113.9");
      expect(seen["x-forwarded-proto"]).toBe("https");
    } finally {
      await server.close();
    }
  });

  it("is the only source the app takes an address from: under another server the address is unknown", () => {
    const headers = new Headers({ "x-forwarded-for": "203.0.113.9" });
    expect(clientAddress(headers)).toBeNull();
    markClientAddressesStamped();
    expect(clientAddress(headers)).toBe("203.0.113.9");
  });
});
