/**
 * `npm run bench -- <name> [options]`: benchmarks that print figures (never timed unit tests). Each ends with
 * one JSON line of results on stdout.
 */
const BENCHES: Record<string, () => Promise<(args: string[]) => Promise<void>>> = {
  envs: async () => (await import("./envSpeed")).envSpeedBench,
  fidelity: async () => (await import("./fidelity")).fidelityBench,
  "flagged-list": async () => (await import("./flaggedList")).flaggedListBench,
  "env-server": async () => (await import("./envServer")).envServerBench,
  "queue-pg": async () => (await import("./queuePg")).queuePgBench,
  "real-phase": async () => (await import("./realPhase")).realPhaseBench,
  retrieval: async () => (await import("./retrieval")).retrievalBench,
  rollouts: async () => (await import("./rollouts")).rolloutsBench,
  "remote-rollouts": async () => (await import("./remoteRollouts")).remoteRolloutsBench,
  table: async () => (await import("./table")).tableBench,
  transfer: async () => (await import("./transfer")).transferBench,
  "table-configs": async () => (await import("./table/configs")).tableConfigsBench,
  "table-report": async () => (await import("./table/rereport")).tableReportBench,
  "ui-stepper": async () => (await import("./uiStepper")).uiStepperBench,
  "ui-heatmap": async () => (await import("./uiHeatmap")).uiHeatmapBench,
  "webshop-rule": async () => (await import("./webshopRule")).webshopRuleBench,
};

async function main() {
  const [name, ...args] = process.argv.slice(2);
  const load = name ? BENCHES[name] : undefined;
  if (!load) {
    process.stderr.write(`usage: npm run bench -- <${Object.keys(BENCHES).join("|")}> [options]\n`);
    process.exit(2);
  }
  await (await load())(args);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
