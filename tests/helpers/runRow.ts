import type { Db } from "@/server/db";

/** A bare Run row for queue and store tests: a shop DreamGym run with no config, in the status asked for. */
export function createRunRow(
  db: Db,
  fields: { status: string; name?: string; id?: string; domain?: string },
) {
  return db.run.create({
    data: { name: "r", method: "dreamgym", domain: "shop", algorithm: "grpo", config: {}, ...fields },
  });
}
