/**
 * `npm run env-server`: the environment server alone (README "Train an LLM agent with verl or TRL against
 * DreamGym"). `npm start` runs it beside web and worker. It seeds an empty database with the demo data before
 * serving, and marks the episodes a killed server left live as abandoned. SIGINT/SIGTERM records every open episode
 * as abandoned, writes what is pending and exits.
 */
import { config } from "@/env";
import { getDb } from "@/server/db";
import { startEnvServer } from "@/server/envServer/server";
import { migrateDeploy } from "@/server/migrate";

const log = (line: string) => console.log(`[env-server] ${line}`);

async function main() {
  const settings = config();
  await migrateDeploy(settings.databaseUrl);
  const db = await getDb();
  const { envServer } = settings;
  const server = await startEnvServer(db, {
    databaseUrl: settings.databaseUrl,
    host: envServer.host ?? settings.host,
    port: envServer.port,
    maxSessions: envServer.maxSessions,
    idleMs: envServer.idleSeconds * 1000,
    ...(envServer.token ? { token: envServer.token } : {}),
    // An empty data folder gets the demo data first, as `npm start` gives it: the synthetic environments need it.
    seedIfEmpty: settings.demo.seedOnEmpty,
    log,
  });
  log(
    `OpenEnv on ${server.url} (ws ${server.url.replace("http", "ws")}/ws), AgentGym under /agentgym/{webshop,alfworld}`,
  );
  // The synthetic environments' replay buffers load in the background: the first synthetic reset need not wait.
  void server.service.warm(["shop", "household"]);
  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1);
    stopping = true;
    log("stopping: open episodes are recorded as abandoned");
    server
      .close()
      .then(() => db.$disconnect())
      .then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error) => {
  console.error(`[env-server] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
