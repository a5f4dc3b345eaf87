import { describe, expect, it } from "vitest";
import type { Task } from "../types";
import { Rng } from "../util/random";
import { selectBatch } from "./selectBatch";
import type { TaskCandidate } from "./valueTable";

const seed = (id: string): Task => ({ id, domain: "shop", instruction: id, split: "train", origin: "seed" });
const gen = (id: string, parentId: string): Task => ({
  id,
  domain: "shop",
  instruction: id,
  split: "train",
  origin: "generated",
  parentId,
  generation: 1,
});
const seen = (task: Task, value: number): TaskCandidate => ({ task, value, seenCount: 2 });
const unseen = (task: Task): TaskCandidate => ({ task, value: 0, seenCount: 0 });

/** The known reward table: running values after some iterations. */
const TABLE: TaskCandidate[] = [
  seen(seed("s1"), 0.25),
  seen(seed("s2"), 0.21),
  seen(seed("s3"), 0.16),
  seen(seed("s4"), 0.09),
  seen(seed("s5"), 0), // always solved: spent
  unseen(seed("s6")),
  seen(gen("g1", "s1"), 0.24),
  seen(gen("g2", "s2"), 0.2),
];
/** Fresh variations: g3 of the frontier task s1, g4 of the spent s5. */
const FRESH = [gen("g3", "s1"), gen("g4", "s5")];

const ids = (tasks: readonly Task[]) => tasks.map((t) => t.id).sort();

describe("selectBatch on a known reward table", () => {
  it("B = 6, λ = 1/3, explore share 1/4: explores s6 and g4, then s1, g3 (s1's value), s2, s3", () => {
    const selection = selectBatch({
      candidates: TABLE,
      generated: FRESH,
      batchSize: 6,
      lambda: 1 / 3,
      rng: new Rng(1),
    });
    // By hand: ⌈6/4⌉ = 2 exploration slots take the two tasks nothing is known about (s6, and g4 whose parent is
    // spent). Then by value: s1 0.25 and g3 0.25 (inherited from s1) — g3 is the 2nd generated task, the λ bound
    // ⌊6/3⌋ = 2 is now reached — g1 0.24 skipped (generated), s2 0.21, g2 0.20 skipped (generated), s3 0.16.
    expect(ids(selection.tasks)).toEqual(["g3", "g4", "s1", "s2", "s3", "s6"]);
    expect(selection.generatedCap).toBe(2);
    const reason = Object.fromEntries(selection.picks.map((p) => [p.task.id, [p.reason, p.score]]));
    expect(reason).toEqual({
      s6: ["explore", 0],
      g4: ["explore", 0],
      s1: ["value", 0.25],
      g3: ["lineage", 0.25],
      s2: ["value", 0.21],
      s3: ["value", 0.16],
    });
    // Exploration first, then value order (s1 and g3 tie, so either may come first).
    expect(selection.picks.slice(4).map((p) => p.task.id)).toEqual(["s2", "s3"]);
  });

  it("λ = 0: seed tasks only, and the spent s5 fills the last slot", () => {
    const selection = selectBatch({
      candidates: TABLE,
      generated: FRESH,
      batchSize: 6,
      lambda: 0,
      rng: new Rng(1),
    });
    expect(selection.picks.map((p) => [p.task.id, p.reason])).toEqual([
      ["s6", "explore"],
      ["s1", "value"],
      ["s2", "value"],
      ["s3", "value"],
      ["s4", "value"],
      ["s5", "fill"],
    ]);
  });

  it("λ = 1, B = 4: generated tasks compete on value alone", () => {
    const selection = selectBatch({
      candidates: TABLE,
      generated: FRESH,
      batchSize: 4,
      lambda: 1,
      rng: new Rng(3),
    });
    // 1 exploration slot: s6 or g4 (random); then s1, g3 (0.25), g1 (0.24).
    const picked = ids(selection.tasks);
    expect(picked.filter((id) => id === "s6" || id === "g4")).toHaveLength(1);
    expect(picked).toEqual(expect.arrayContaining(["s1", "g3", "g1"]));
  });

  it("breaks ties with the rng, deterministically, whatever the order candidates arrive in", () => {
    const tied = ["a", "b", "c", "d", "e", "f"].map((id) => seen(seed(id), 0.2));
    const pick = (s: number, pool = tied) =>
      ids(selectBatch({ candidates: pool, batchSize: 2, lambda: 0, rng: new Rng(s), exploreShare: 0 }).tasks);
    expect(pick(5)).toEqual(pick(5));
    expect(pick(5, [...tied].reverse())).toEqual(pick(5));
    const outcomes = new Set(Array.from({ length: 20 }, (_, s) => pick(s).join(",")));
    expect(outcomes.size).toBeGreaterThan(3);
  });

  it("never puts a task twice in a batch, even when it is listed twice", () => {
    const pool = [...TABLE, seen(seed("s1"), 0.25), unseen(seed("s1"))];
    const selection = selectBatch({
      candidates: pool,
      generated: [gen("g1", "s1")],
      batchSize: 20,
      lambda: 1,
      rng: new Rng(2),
    });
    expect(new Set(ids(selection.tasks)).size).toBe(selection.tasks.length);
    expect(ids(selection.tasks)).toEqual(ids(TABLE.map((c) => c.task))); // the whole pool: 8 distinct tasks
  });

  it("refuses a bad λ, batch size or explore share", () => {
    const base = { candidates: TABLE, rng: new Rng(1) };
    expect(() => selectBatch({ ...base, batchSize: 4, lambda: 1.5 })).toThrow(/lambda/);
    expect(() => selectBatch({ ...base, batchSize: -1, lambda: 0.5 })).toThrow(/batchSize/);
    expect(() => selectBatch({ ...base, batchSize: 4, lambda: 0.5, exploreShare: 2 })).toThrow(
      /exploreShare/,
    );
  });
});

describe("the λ bound", () => {
  it("never lets more than ⌊λ·B⌋ generated tasks into a batch", () => {
    const rng = new Rng("lambda-pools");
    for (let trial = 0; trial < 40; trial++) {
      const pool: TaskCandidate[] = [];
      for (let i = 0; i < 12; i++)
        pool.push(rng.chance(0.5) ? seen(seed(`s${i}`), rng.next() / 4) : unseen(seed(`s${i}`)));
      // Generated tasks outnumber and outvalue the seeds, so the bound is what holds them back.
      for (let i = 0; i < 30; i++) {
        const task = gen(`g${i}`, `s${i % 12}`);
        pool.push(rng.chance(0.6) ? seen(task, 0.2 + rng.next() / 20) : unseen(task));
      }
      for (const lambda of [0, 0.1, 0.25, 1 / 3, 0.5, 0.75, 1]) {
        for (const batchSize of [1, 4, 7, 10, 16]) {
          const { tasks, generatedCap } = selectBatch({
            candidates: pool,
            batchSize,
            lambda,
            rng: new Rng(trial),
          });
          const generated = tasks.filter((t) => t.origin === "generated").length;
          expect(generatedCap).toBe(Math.floor(lambda * batchSize + 1e-9));
          expect(generated).toBeLessThanOrEqual(generatedCap);
          // 12 seeds and 30 generated tasks: the batch is as full as the bound allows.
          expect(tasks).toHaveLength(Math.min(batchSize, 12 + generatedCap));
          if (lambda === 1 && batchSize >= 7) expect(generated).toBeGreaterThan(0);
        }
      }
    }
  });
});

describe("exploration", () => {
  it("reserves ⌈B/4⌉ slots for unseen tasks until every one has been tried", () => {
    const frontier = Array.from({ length: 8 }, (_, i) => seen(seed(`hot${i}`), 0.25 - i / 100));
    const untried = Array.from({ length: 30 }, (_, i) => seed(`new${String(i).padStart(2, "0")}`));
    const values = new Map<string, number>();
    const rng = new Rng("explore");
    const explored = new Set<string>();
    let iterations = 0;
    while (explored.size < untried.length) {
      const pool = [
        ...frontier,
        ...untried.map((t) => (values.has(t.id) ? seen(t, values.get(t.id) ?? 0) : unseen(t))),
      ];
      const { picks } = selectBatch({ candidates: pool, batchSize: 8, lambda: 0, rng });
      const fresh = picks.filter((p) => p.reason === "explore").map((p) => p.task.id);
      expect(fresh).toHaveLength(Math.min(2, untried.length - explored.size));
      for (const id of fresh) {
        explored.add(id);
        values.set(id, 0.01); // tried: less valuable than the frontier
      }
      iterations++;
    }
    expect(iterations).toBe(15);
  });

  it("ranks a fresh variation by its parent's value, and explores one whose parent is unknown", () => {
    const pool = [seen(seed("p"), 0.2), seen(seed("q"), 0.1), seen(seed("r"), 0.05)];
    const orphan = gen("o", "missing");
    const child = gen("c", "p");
    const { picks } = selectBatch({
      candidates: pool,
      generated: [child, orphan],
      batchSize: 3,
      lambda: 1,
      rng: new Rng(4),
      exploreShare: 1 / 3,
    });
    expect(picks.map((p) => [p.task.id, p.reason])).toEqual([
      ["o", "explore"],
      ...(picks[1]?.task.id === "p"
        ? [
            ["p", "value"],
            ["c", "lineage"],
          ]
        : [
            ["c", "lineage"],
            ["p", "value"],
          ]),
    ]);
  });
});
