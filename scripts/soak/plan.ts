import { createHash } from "node:crypto";
import { Rng } from "@/core/util/random";

/**
 * The soak's schedule, fixed by its length and seed before anything starts: when each run, import, teacher job and
 * deletion is asked for, and when each fault strikes and for how long. What an event finds when it comes (which
 * worker is busy, which runs have finished) depends on timing; every choice it makes among them is drawn here.
 */

/** The run configs the load cycles through: both built-in domains, synthetic and real, GRPO and PPO. */
export const RUN_PRESETS = [
  { name: "shop dreamgym grpo", domain: "shop", method: "dreamgym", algorithm: "grpo" },
  { name: "household dreamgym grpo", domain: "household", method: "dreamgym", algorithm: "grpo" },
  { name: "shop real ppo", domain: "shop", method: "real", algorithm: "ppo" },
  { name: "household real grpo", domain: "household", method: "real", algorithm: "grpo" },
] as const;
export type RunPreset = (typeof RUN_PRESETS)[number];

/** Faults that are never two at once: each makes the next one's effect hard to tell apart. */
export type ExclusiveFault = "pause" | "disk-full" | "lock";

/** Tables a PostgreSQL lock episode takes (SQLite's write lock is the whole database). */
export const LOCKED_TABLES = ["Job", "Run", "Trajectory", "Step"] as const;

export type SoakEvent = { at: number } & (
  | { kind: "run"; preset: number; seed: number }
  | { kind: "import"; first: number; lines: number }
  | { kind: "teacher"; domain: "shop" | "household"; limit: number }
  | { kind: "delete-run"; pick: number }
  | { kind: "delete-import"; pick: number }
  | { kind: "kill"; pick: number; restartAfterMs: number }
  | { kind: "pause"; pick: number; ms: number }
  | { kind: "disk-full"; ms: number }
  | { kind: "lock"; ms: number; table: (typeof LOCKED_TABLES)[number] }
);
export type SoakEventKind = SoakEvent["kind"];

export interface SoakPlan {
  seed: number;
  minutes: number;
  /** How long load is added and faults strike (ms); then the soak drains. */
  loadMs: number;
  events: SoakEvent[];
  /** A short fingerprint of the events: two soaks with the same one ran the same schedule. */
  fingerprint: string;
}

export interface PlanOptions {
  minutes: number;
  seed: number;
  /** The workers' lease: a pause outlasts it, so that another worker reclaims the paused worker's job. */
  leaseMs: number;
  /** Lines of the sample file imports take their lines from. */
  sampleLines: number;
}

/** Every `everyMs` from `fromMs` (at least once), each moved by up to a third of the spacing. */
function spread(rng: Rng, loadMs: number, everyMs: number, fromMs: number): number[] {
  const times: number[] = [];
  for (let t = fromMs; t < loadMs - 2_000 || times.length === 0; t += everyMs)
    times.push(Math.round(Math.min(loadMs - 1_000, t + (rng.next() - 0.5) * (everyMs / 1.5))));
  return times;
}

export function planSoak(options: PlanOptions): SoakPlan {
  const { minutes, seed, leaseMs } = options;
  const loadMs = Math.round(minutes * 60_000);
  const rng = new Rng(`soak:${seed}`);
  const events: SoakEvent[] = [];

  // Runs: the first two share their preset and seed (their curricula generate the same task ids), the rest
  // are drawn, with seeds from a small set so that more such pairs come up.
  spread(rng, loadMs, 12_000, 0).forEach((at, i) => {
    const twin = i < 2;
    events.push({
      at: twin ? i * 1_000 : at,
      kind: "run",
      preset: twin ? 0 : rng.int(0, RUN_PRESETS.length - 1),
      seed: twin ? 1 : rng.int(1, 2),
    });
  });
  for (const at of spread(rng, loadMs, 18_000, 3_000)) {
    const lines = rng.int(12, 30);
    events.push({ at, kind: "import", first: rng.int(0, options.sampleLines - lines), lines });
  }
  for (const at of spread(rng, loadMs, 25_000, 6_000))
    events.push({ at, kind: "teacher", domain: rng.pick(["shop", "household"] as const), limit: 12 });
  for (const at of spread(rng, loadMs, 20_000, 25_000))
    events.push({ at, kind: "delete-run", pick: rng.next() });
  for (const at of spread(rng, loadMs, 30_000, 30_000))
    events.push({ at, kind: "delete-import", pick: rng.next() });

  // kill -9s every 10 to 20 s, from the eighth second.
  for (let at = 8_000 + rng.int(0, 4_000); at < loadMs - 2_000; at += rng.int(10_000, 20_000))
    events.push({ at, kind: "kill", pick: rng.next(), restartAfterMs: rng.int(300, 1_200) });

  // Pauses, full disks and held locks, one at a time: at least one of each, about one a minute each, in slots
  // spread over the middle of the load, each fault inside its slot.
  const perKind = Math.max(1, Math.round(minutes));
  const kinds = rng.shuffle(
    (["pause", "disk-full", "lock"] as const).flatMap((k) => Array.from({ length: perKind }, () => k)),
  );
  const from = loadMs * 0.1;
  const slot = (loadMs * 0.8) / kinds.length;
  kinds.forEach((kind, i) => {
    const ms =
      kind === "pause"
        ? leaseMs + rng.int(2_000, 4_000)
        : kind === "disk-full"
          ? rng.int(5_000, 8_000)
          : rng.int(2_000, 4_000);
    const at = Math.round(from + i * slot + rng.next() * Math.max(0, slot - ms - 1_000));
    if (kind === "pause") events.push({ at, kind, ms, pick: rng.next() });
    else if (kind === "disk-full") events.push({ at, kind, ms });
    else events.push({ at, kind, ms, table: rng.pick(LOCKED_TABLES) });
  });

  events.sort((a, b) => a.at - b.at || a.kind.localeCompare(b.kind));
  const fingerprint = createHash("sha256").update(JSON.stringify(events)).digest("hex").slice(0, 12);
  return { seed, minutes, loadMs, events, fingerprint };
}

/** How many events of each kind the plan holds. */
export function planCounts(plan: SoakPlan): Record<SoakEventKind, number> {
  const counts = {
    run: 0,
    import: 0,
    teacher: 0,
    "delete-run": 0,
    "delete-import": 0,
    kill: 0,
    pause: 0,
    "disk-full": 0,
    lock: 0,
  } satisfies Record<SoakEventKind, number>;
  for (const e of plan.events) counts[e.kind]++;
  return counts;
}
