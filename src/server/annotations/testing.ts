import { RetrievalTeacher } from "@/core/experience/retrieval/retrievalTeacher";
import { DEFAULT_EXPERIENCE_SETTINGS } from "@/core/experience/types";
import { collectOffline } from "../collect/collectOffline";
import type { Db } from "../db";
import { writeTeacherTraces } from "../experience/teacherTraces";

/** A small annotation queue for tests: two noisy shop episodes, each step with a teacher trace to review. */
export async function seedTeacherQueue(db: Db): Promise<void> {
  await collectOffline(db, {
    domain: "shop",
    policy: "noisy",
    episodes: 2,
    split: "train",
    epsilon: 0.3,
    seed: 3,
    offset: 0,
  });
  await writeTeacherTraces(db, undefined, new RetrievalTeacher(), {
    limit: 10_000,
    settings: { ...DEFAULT_EXPERIENCE_SETTINGS, k: 0 },
  });
}
