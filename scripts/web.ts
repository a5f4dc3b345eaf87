/**
 * The web app: Next.js's production build served by DreamGym's own HTTP server, which `npm start` runs. It does
 * what `next start` does, and one thing more: before Next.js reads a request, it writes the address the request
 * came from into X-Forwarded-For (from the connection, or from a trusted proxy's header:
 * DREAMGYM_TRUSTED_PROXIES), which nothing else can tell a route handler. Sign-in throttling counts failures per
 * client address by it (src/server/auth/clientAddress.ts).
 */
import http from "node:http";
import path from "node:path";
import next from "next";
import { config } from "@/env";
import { markClientAddressesStamped, stampClientAddress, trustedProxySet } from "@/server/auth/clientAddress";

const root = path.resolve(import.meta.dirname, "..");
const log = (line: string) => console.log(`[web] ${line}`);

async function main() {
  const settings = config();
  const app = next({ dev: false, dir: root, hostname: settings.host, port: settings.port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const trusted = trustedProxySet(settings.auth.trustedProxies);
  markClientAddressesStamped();
  const server = http.createServer((request, response) => {
    stampClientAddress(request, trusted);
    void handle(request, response);
  });
  server.listen(settings.port, settings.host, () =>
    log(`listening on http://${settings.host}:${settings.port}`),
  );
  const stop = () => {
    server.close();
    void app.close().finally(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error) => {
  console.error(`[web] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
