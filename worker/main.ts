import { fileURLToPath } from "node:url";
import { superviseWorker, supervisorPid } from "./supervisor";

/**
 * The background process (`npm run worker`): a supervisor that answers stop signals at once, and under it the
 * worker that claims and runs jobs (supervisor.ts says why two). This file starts both: run directly, it is the
 * supervisor and starts itself again as the worker; the worker loads the job code, which the supervisor never does.
 */
const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);

if (supervisorPid() === undefined) superviseWorker(fileURLToPath(import.meta.url), log);
else {
  const { runWorker } = await import("./run");
  await runWorker(log).catch((error) => {
    console.error("worker: fatal", error);
    process.exit(1);
  });
}
