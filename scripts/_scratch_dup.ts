import { getDb } from "@/server/db";
import { parseRunConfig } from "@/core/train/config";
import { runTraining } from "@/core/train/run";
import { runDeps } from "@/server/train/runDeps";
import { transitionText } from "@/core/replay/transitionText";
import { episodeTransitions } from "@/core/train/episodeTransitions";

const db = await getDb();
const config = parseRunConfig({ method: "dreamgym", domain: "shop", iterations: Number(process.argv[2] ?? 40), tasksPerBatch: 8, groupSize: 8, evaluation: { interval: 100000, episodes: 10 } });
const deps = await runDeps(db, config);
const texts = new Set<string>();
let total = 0;
const t0 = performance.now();
let last = t0;
const result = await runTraining(config, { ...deps, onIteration: (r) => {
  for (const e of r.episodes) for (const s of e.steps) { total++; texts.add(transitionText({ instruction: e.task.instruction, state: s.state.text, action: s.action })); }
  if (r.iteration % 10 === 0) { const now = performance.now(); console.error(`it ${r.iteration}: total ${total} distinct ${texts.size} ${(r.syntheticTransitions)} rate-last10 ${( (now-last)/1000).toFixed(1)}s`); last = now; }
}});
console.log(JSON.stringify({ total, distinct: texts.size, seconds: (performance.now() - t0) / 1000, final: result.final.successRate }));
process.exit(0);
