import path from "node:path";

/** The project's own sample of web-navigation trajectories (a domain with no real environment here). */
export const SAMPLE_FILE = path.resolve(import.meta.dirname, "../../../samples/web-navigation.jsonl");
